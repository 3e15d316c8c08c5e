package permission

// Agent permission policies for evaluations and runs an agent asks for.
const (
	PolicyAsk   = "ask"
	PolicyAllow = "allow"
	PolicyDeny  = "deny"
)

// ValidPolicy reports whether p is a known policy.
func ValidPolicy(p string) bool {
	return p == PolicyAsk || p == PolicyAllow || p == PolicyDeny
}
