package project

import "syscall"

// changeTime is st's change time (ctime) in Unix nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
