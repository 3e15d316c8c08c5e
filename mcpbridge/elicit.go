package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/permission"
)

// maxElicitBytes bounds the code or command a permission question carries:
// the person must see all of what would run, so a bigger request is refused
// unasked (the window's dialog does the same past its own bound).
const maxElicitBytes = 64 << 10

// The answers a permission question offers, as the client's form sends them.
const (
	answerDeny         = "deny"
	answerAllowOnce    = "allow_once"
	answerAllowSession = "allow_session"
)

// permissionSchema is the form a permission question asks the client to
// show: one required choice.
var permissionSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"decision": map[string]any{
			"type":        "string",
			"title":       "Allow it?",
			"enum":        []string{answerDeny, answerAllowOnce, answerAllowSession},
			"enumNames":   []string{"Deny", "Allow once", "Allow for this session"},
			"description": "allow_session allows every later request of this session too, until the policy changes",
		},
	},
	"required": []string{"decision"},
}

// AskThroughClient is a permission.Gate ask function for the headless
// server (--mcp), where there is no window: it puts the request to the
// person through the calling client's elicitation (the client shows a form
// and sends back the answer). A client that did not offer elicitation at
// initialize, or whose protocol version has no server requests, has nobody
// to ask (permission.ErrNobodyToAsk): the gate refuses as it always has.
// An answer that is not one of the offered choices is an error, which the
// gate counts as no. The question waits as long as ctx and maxClientWait
// allow. Safe for concurrent use.
//
// The answer is only as honest as the client: it is the person's only if
// the client shows them the form. That is why the window asks in its own
// dialog, and only the headless server, which the person configured that
// client to start, asks this way.
func AskThroughClient(ctx context.Context, req permission.Request) (permission.Decision, error) {
	srv := server.ServerFromContext(ctx)
	sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if srv == nil || !ok || sess.GetClientCapabilities().Elicitation == nil {
		return permission.Deny, permission.ErrNobodyToAsk
	}
	question, err := permissionQuestion(req)
	if err != nil {
		return permission.Deny, err
	}
	res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  mcp.ElicitationParams{Message: question, RequestedSchema: permissionSchema},
	})
	if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) {
		return permission.Deny, permission.ErrNobodyToAsk
	}
	if err != nil {
		return permission.Deny, err
	}
	return decisionOf(res)
}

// permissionQuestion is the text the person reads: who asks, what would
// run, and everything that decides how.
func permissionQuestion(req permission.Request) (string, error) {
	if n := len(req.Detail); n > maxElicitBytes {
		return "", fmt.Errorf("the request is %d bytes, more than the %d a question to the person carries in full; ask for something smaller", n, maxElicitBytes)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s asks Trestle to %s:\n\n%s\n", req.Client, kindVerb(req.Kind), req.Detail)
	line := func(label string, items []string) {
		if len(items) > 0 {
			fmt.Fprintf(&b, "\n%s: %s", label, strings.Join(items, ", "))
		}
	}
	if req.Selection != "" {
		line("Selection", []string{req.Selection})
	}
	if req.Dir != "" {
		line("In folder", []string{req.Dir})
	}
	line("Environment", req.Env)
	line("Build tags", req.Tags)
	line("Imports first", req.Preload)
	line("Runs the init code of", req.Initialises)
	return b.String(), nil
}

// kindVerb says what a request of kind would do.
func kindVerb(kind string) string {
	switch kind {
	case "evaluate":
		return "evaluate this Go code"
	case permission.KindRestart:
		return "restart an evaluator, which drops its state"
	}
	return kind + " this command"
}

// decisionOf reads the client's answer: declined or cancelled is no; an
// accepted form must carry one of the offered choices.
func decisionOf(res *mcp.ElicitationResult) (permission.Decision, error) {
	switch res.Action {
	case mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel:
		return permission.Deny, nil
	case mcp.ElicitationResponseActionAccept:
	default:
		return permission.Deny, fmt.Errorf("the client's answer has action %q; it must be accept, decline or cancel", res.Action)
	}
	form, ok := res.Content.(map[string]any)
	if !ok {
		return permission.Deny, fmt.Errorf(`the client's accepted answer must be an object like {"decision":"allow_once"}, not %s`, jsonTypeOf(res.Content))
	}
	decision, ok := form["decision"].(string)
	if !ok {
		return permission.Deny, fmt.Errorf("the client's accepted answer must have a decision string, not %s", jsonTypeOf(form["decision"]))
	}
	switch decision {
	case answerAllowOnce:
		return permission.AllowOnce, nil
	case answerAllowSession:
		return permission.AllowSession, nil
	case answerDeny:
		return permission.Deny, nil
	}
	return permission.Deny, fmt.Errorf("the client's answer has decision %q; it must be %s, %s or %s",
		decision, answerDeny, answerAllowOnce, answerAllowSession)
}

// jsonTypeOf names the JSON type of a decoded value, with its article.
func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	}
	return "an object"
}
