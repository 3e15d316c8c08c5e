package app

import (
	"context"
	"errors"
	"testing"
)

func TestGate(t *testing.T) {
	req := PermissionRequest{Client: "claude", Session: "conn-1", Kind: "evaluate", Detail: "1+1"}
	answer := func(d Decision, err error) func(context.Context, PermissionRequest) (Decision, error) {
		return func(context.Context, PermissionRequest) (Decision, error) { return d, err }
	}
	tests := []struct {
		name    string
		policy  string
		ask     func(context.Context, PermissionRequest) (Decision, error)
		refused bool
	}{
		{"allow skips the person", PolicyAllow, answer(Deny, nil), false},
		{"deny skips the person", PolicyDeny, answer(AllowOnce, nil), true},
		{"ask: allowed once", PolicyAsk, answer(AllowOnce, nil), false},
		{"ask: denied", PolicyAsk, answer(Deny, nil), true},
		{"ask: no answer in time", PolicyAsk, answer(Deny, errors.New("busy")), true},
		{"ask with nobody to ask", PolicyAsk, nil, true},
		{"unknown policy asks", "sometimes", answer(Deny, nil), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewGate(tt.policy, tt.ask).Check(context.Background(), req)
			if tt.refused != errors.Is(err, ErrRefused) || (!tt.refused && err != nil) {
				t.Fatalf("Check = %v, refused want %v", err, tt.refused)
			}
		})
	}
}

func TestGateRemembersAllowForSession(t *testing.T) {
	asked := 0
	g := NewGate(PolicyAsk, func(context.Context, PermissionRequest) (Decision, error) {
		asked++
		return AllowSession, nil
	})
	req := PermissionRequest{Session: "conn-1", Kind: "run"}
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
