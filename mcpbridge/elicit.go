package mcpbridge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
// and sends back the answer). A client that did not offer elicitation has
// nobody to ask (permission.ErrNobodyToAsk): the gate refuses as it always
// has. An answer that is not one of the offered choices is an error, which
// the gate counts as no.
//
// How the question travels depends on the protocol version. Before
// 2026-07-28 the server sends elicitation/create and waits for the answer
// (as long as ctx and maxClientWait allow). From 2026-07-28 on there are no
// server requests: the tool call ends with an input_required result
// carrying the question (askInRoundTrips), and the client calls again with
// the answer, which this function then reads.
//
// The answer is only as honest as the client: it is the person's only if
// the client shows them the form. That is why the window asks in its own
// dialog, and only the headless server, which the person configured that
// client to start, asks this way. Safe for concurrent use.
func AskThroughClient(ctx context.Context, req permission.Request) (permission.Decision, error) {
	if caps := clientCapabilities(ctx); caps == nil || caps.Elicitation == nil {
		return permission.Deny, permission.ErrNobodyToAsk
	}
	question, err := permissionQuestion(req)
	if err != nil {
		return permission.Deny, err
	}
	params := mcp.ElicitationParams{Message: question, RequestedSchema: permissionSchema}
	if server.IsModernRequest(ctx) {
		return askInRoundTrip(ctx, params)
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return permission.Deny, permission.ErrNobodyToAsk
	}
	res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  params,
	})
	if err != nil {
		return permission.Deny, err
	}
	return decisionOf(res)
}

// clientCapabilities are what the calling client offers: declared with the
// request from 2026-07-28 on, at initialize before; nil when unknown.
func clientCapabilities(ctx context.Context) *mcp.ClientCapabilities {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.ClientCapabilities
	}
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		caps := cs.GetClientCapabilities()
		return &caps
	}
	return nil
}

// permissionInput keys the permission question in a round trip's input
// requests and the client's answers.
const permissionInput = "permission"

// errAnswerPending is what the gate hears while the question travels to
// the client in a round trip: the call's answer is replaced by the
// question (askInRoundTrips), so nobody reads the refusal it causes.
var errAnswerPending = errors.New("the question is on its way to the client")

// roundTrip is one tool call's part in a multi round-trip exchange: the
// answers and state the client sent with it, and the question to send back
// when the call needs one. Only the call's own goroutine uses it.
type roundTrip struct {
	answers mcp.InputResponses
	state   string
	ask     *mcp.ElicitationParams // the question to send back, when asked
	askFor  string                 // the state that binds its answer to it
}

type roundTripKey struct{}

// askInRoundTrip reads the person's answer from the call when the client
// sent one for this very question (its state is the question's digest, so
// an answer to another question does not count), else records the
// question for askInRoundTrips to send back.
func askInRoundTrip(ctx context.Context, params mcp.ElicitationParams) (permission.Decision, error) {
	rt, ok := ctx.Value(roundTripKey{}).(*roundTrip)
	if !ok {
		return permission.Deny, permission.ErrNobodyToAsk
	}
	sum := sha256.Sum256([]byte(params.Message))
	state := hex.EncodeToString(sum[:])
	if rt.state == state {
		if res := server.ElicitationResponse(rt.answers, permissionInput); res != nil {
			return decisionOf(res)
		}
	}
	rt.ask, rt.askFor = &params, state
	return permission.Deny, errAnswerPending
}

// askInRoundTrips is the tool middleware of the round trips (protocol
// 2026-07-28 on): a call whose permission question has no answer yet ends
// with an input_required result that carries the question, built with
// mcp-go's InputRequestBuilder; the client asks its person and calls again.
func askInRoundTrips(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rt := &roundTrip{answers: req.Params.InputResponses, state: req.Params.RequestState}
		res, err := next(context.WithValue(ctx, roundTripKey{}, rt), req)
		if rt.ask != nil {
			return server.NewInputRequestBuilder(rt.askFor).Elicit(permissionInput, *rt.ask).ToolResult(), nil
		}
		return res, err
	}
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
