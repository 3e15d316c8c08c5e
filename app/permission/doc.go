// Package permission is the gate every evaluation and run an agent asks for
// passes: the project's policy (ask, allow or deny), the person's answer and
// "allow for this session" grants. deny always wins.
//
// It shows nothing itself: the window hands the gate a function that asks the
// person. Nothing here imports Fyne or writes to os.Stdout.
package permission
