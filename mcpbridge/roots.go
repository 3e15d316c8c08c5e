package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A client that offers roots says which folders it works in. Trestle
// serves one project, so a client whose roots neither contain the project
// nor lie inside it is most likely attached to the wrong window (or runs
// --mcp in the wrong folder): its paths will not be the project's. That is
// worth a warning, not a refusal: the roots are the client's idea, and a
// client may list its own settings folder or nothing useful at all. So the
// server asks for the roots when the client has initialized and whenever
// it says they changed, logs them, and when none overlaps the project it
// warns the client (a log message), the log and, in the window, the person.

// rootsWait bounds the roots/list request: a client answers it from what
// it knows, without asking anyone.
const rootsWait = 30 * time.Second

// watchRoots asks clients that offer roots for them (see above).
func (s *Server) watchRoots() {
	ask := func(ctx context.Context, _ mcp.JSONRPCNotification) {
		sess, ok := server.ClientSessionFromContext(ctx).(*session)
		if !ok || sess.GetClientCapabilities().Roots == nil {
			return
		}
		// The answer comes back on the read loop this runs on: ask off it.
		go s.askRoots(ctx, sess)
	}
	s.mcp.AddNotificationHandler(string(mcp.MethodNotificationInitialized), ask)
	s.mcp.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, ask)
}

// askRoots asks sess's client for its roots and says what it makes of them.
// ctx is the session's: the call ends with it, or after rootsWait.
func (s *Server) askRoots(ctx context.Context, sess *session) {
	ctx, cancel := context.WithTimeout(ctx, rootsWait)
	defer cancel()
	res, err := s.mcp.RequestRoots(ctx, mcp.ListRootsRequest{Request: mcp.Request{Method: string(mcp.MethodListRoots)}})
	if errors.Is(err, errClientGone) {
		return
	}
	if err != nil {
		s.logger.Printf("mcp: %s (%s) offers roots, but asking for them failed: %v", sess.id, sess.client().Name, err)
		return
	}
	names := make([]string, len(res.Roots))
	for i, r := range res.Roots {
		names[i] = r.URI
	}
	s.logger.Printf("mcp: %s (%s) works in: %s", sess.id, sess.client().Name, strings.Join(names, ", "))
	if len(res.Roots) == 0 || s.agent.Overlaps(dirsOf(res.Roots)) {
		return
	}
	msg := fmt.Sprintf("%s works in %s, which is not this Trestle project (%s) nor inside it: "+
		"paths it sends are read against %s. If it meant another project, attach it to that "+
		"project's window (trestle --mcp-attach DIR) or start trestle --mcp in that folder.",
		sess.client().Name, strings.Join(names, ", "), s.agent.Project().Root, s.agent.Project().Root)
	s.logger.Printf("mcp: %s: %s", sess.id, msg)
	s.warnClient(sess, msg)
	if err := s.agent.Warn(ctx, msg); err != nil {
		s.logger.Printf("mcp: show the roots warning in the window: %v", err)
	}
}

// warnClient sends the client a warning log message, without waiting: a
// client that does not read its notifications misses it.
func (s *Server) warnClient(sess *session, msg string) {
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: string(mcp.MethodNotificationMessage),
		Params: mcp.NotificationParams{AdditionalFields: map[string]any{
			"level": mcp.LoggingLevelWarning, "logger": "trestle", "data": msg}},
	}}
	select {
	case sess.notifications <- n:
	default:
	}
}

// dirsOf is the folders of roots that are file URIs; the others name no
// folder.
func dirsOf(roots []mcp.Root) []string {
	var dirs []string
	for _, r := range roots {
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" || u.Path == "" {
			continue
		}
		dirs = append(dirs, filepath.FromSlash(u.Path))
	}
	return dirs
}
