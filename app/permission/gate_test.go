package permission

import (
	"context"
	"errors"
	"testing"

	"trestle/app/errdefs"
)

func TestGate(t *testing.T) {
	req := Request{Client: "claude", Session: "conn-1", Kind: "evaluate", Detail: "1+1"}
	answer := func(d Decision, err error) func(context.Context, Request) (Decision, error) {
		return func(context.Context, Request) (Decision, error) { return d, err }
	}
	tests := []struct {
		name    string
		policy  string
		ask     func(context.Context, Request) (Decision, error)
		refused bool
	}{
		{"allow skips the person", PolicyAllow, answer(Deny, nil), false},
		{"deny skips the person", PolicyDeny, answer(AllowOnce, nil), true},
		{"ask: allowed once", PolicyAsk, answer(AllowOnce, nil), false},
		{"ask: denied", PolicyAsk, answer(Deny, nil), true},
		{"ask: no answer in time", PolicyAsk, answer(Deny, errors.New("busy")), true},
		{"ask with nobody to ask", PolicyAsk, nil, true},
		{"the asker has nobody to ask", PolicyAsk, answer(AllowOnce, ErrNobodyToAsk), true},
		{"unknown policy asks", "sometimes", answer(Deny, nil), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewGate(tt.policy, tt.ask).Check(context.Background(), req)
			if tt.refused != errors.Is(err, errdefs.ErrRefused) || (!tt.refused && err != nil) {
				t.Fatalf("Check = %v, refused want %v", err, tt.refused)
			}
		})
	}
}

func TestGateRemembersAllowForSession(t *testing.T) {
	asked := 0
	g := NewGate(PolicyAsk, func(context.Context, Request) (Decision, error) {
		asked++
		return AllowSession, nil
	})
	req := Request{Session: "conn-1", Kind: "run"}
	for range 3 {
		if err := g.Check(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if asked != 1 {
		t.Fatalf("asked %d times, want once", asked)
	}
	other := req
	other.Session = "conn-2"
	g.Check(context.Background(), other)
	g.Forget("conn-1")
	g.Check(context.Background(), req)
	if asked != 3 {
		t.Fatalf("asked %d times, want 3 (another session, then after Forget)", asked)
	}
}

// askCounter is an ask function that answers d and counts its calls;
// during, when set, runs while the person "looks at" the dialog.
type askCounter struct {
	d      Decision
	asked  int
	during func()
}

func (a *askCounter) ask(context.Context, Request) (Decision, error) {
	a.asked++
	if a.during != nil {
		a.during()
	}
	return a.d, nil
}

// TestGateDenyWinsOverASessionGrant is the attack of issue 11 item 3: the
// person allowed a session, then switched the project to deny because the
// agent misbehaved; the agent's next evaluation ran anyway.
func TestGateDenyWinsOverASessionGrant(t *testing.T) {
	a := &askCounter{d: AllowSession}
	g := NewGate(PolicyAsk, a.ask)
	req := Request{Session: "conn-1", Kind: "evaluate", Detail: "1"}
	if err := g.Check(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	g.SetPolicy(PolicyDeny)
	if err := g.Check(context.Background(), req); !errors.Is(err, errdefs.ErrRefused) {
		t.Fatalf("under deny, a session allowed before ran: %v", err)
	}
	if a.asked != 1 {
		t.Fatalf("deny asked the person (%d asks)", a.asked)
	}
}

// TestGatePolicyChangeClearsSessionGrants: ask → allow → ask again must not
// revive a grant given before.
func TestGatePolicyChangeClearsSessionGrants(t *testing.T) {
	a := &askCounter{d: AllowSession}
	g := NewGate(PolicyAsk, a.ask)
	req := Request{Session: "conn-1", Kind: "run", Detail: "go test ./..."}
	g.Check(context.Background(), req)
	g.SetPolicy(PolicyAsk) // the same policy saved again keeps the grant
	g.Check(context.Background(), req)
	if a.asked != 1 {
		t.Fatalf("saving the same policy dropped the grant (%d asks)", a.asked)
	}
	for _, p := range []string{PolicyAllow, PolicyAsk} {
		g.SetPolicy(p)
	}
	a.d = AllowOnce
	if err := g.Check(context.Background(), req); err != nil || a.asked != 2 {
		t.Fatalf("after allow and back to ask: %v, %d asks (want the person asked again)", err, a.asked)
	}
}

// TestGateAnswerAcrossASwitchToDeny: the person switches to deny while a
// dialog is up, then the dialog is answered "Allow for this session" (by
// them or a stray click): deny wins, and no grant is kept.
func TestGateAnswerAcrossASwitchToDeny(t *testing.T) {
	a := &askCounter{d: AllowSession}
	g := NewGate(PolicyAsk, a.ask)
	a.during = func() { g.SetPolicy(PolicyDeny) }
	req := Request{Session: "conn-1", Kind: "evaluate", Detail: "1"}
	if err := g.Check(context.Background(), req); !errors.Is(err, errdefs.ErrRefused) {
		t.Fatalf("an answer given after the switch to deny ran: %v", err)
	}
	a.during = nil
	g.SetPolicy(PolicyAsk)
	a.d = Deny
	g.Check(context.Background(), req)
	if a.asked != 2 {
		t.Fatalf("the answer across the switch became a grant (%d asks, want 2)", a.asked)
	}
}

// TestGateForgetDuringTheDialog: a session that ends while its dialog is up
// gets no grant from the late answer (its id may be given out again).
func TestGateForgetDuringTheDialog(t *testing.T) {
	a := &askCounter{d: AllowSession}
	g := NewGate(PolicyAsk, a.ask)
	a.during = func() { g.Forget("conn-1") }
	req := Request{Session: "conn-1", Kind: "run", Detail: "go build ./..."}
	g.Check(context.Background(), req)
	if g.Granted("conn-1") {
		t.Fatal("a session forgotten while its dialog was up kept the grant")
	}
}

// TestGateNoGrantWithoutASession: a caller with no session id must not
// leave a grant every other session-less caller inherits.
func TestGateNoGrantWithoutASession(t *testing.T) {
	a := &askCounter{d: AllowSession}
	g := NewGate(PolicyAsk, a.ask)
	req := Request{Kind: "run", Detail: "go build ./..."}
	g.Check(context.Background(), req)
	g.Check(context.Background(), req)
	if a.asked != 2 {
		t.Fatalf("asked %d times, want 2: a grant without a session applies to nobody", a.asked)
	}
}

// TestGateSetAsk: a gate made before its asker (the window is made after
// the services) refuses until it has one, then asks it.
func TestGateSetAsk(t *testing.T) {
	g := NewGate(PolicyAsk, nil)
	req := Request{Session: "conn-1", Kind: "run", Detail: "go vet ./..."}
	if err := g.Check(context.Background(), req); !errors.Is(err, errdefs.ErrRefused) {
		t.Fatalf("with nobody to ask: %v, want refused", err)
	}
	a := &askCounter{d: AllowOnce}
	g.SetAsk(a.ask)
	if err := g.Check(context.Background(), req); err != nil || a.asked != 1 {
		t.Fatalf("after SetAsk: %v, %d asks; want allowed once by the asker", err, a.asked)
	}
}
