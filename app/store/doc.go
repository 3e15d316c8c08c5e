// Package store is Trestle's per-user state: the folder it lives in
// (ConfigDir), and one bbolt database holding recent projects, settings, each
// project's remembered state, and the record buckets and blob files change
// sets are kept in.
//
// Several Trestle processes share the database, so none holds it open between
// operations: each opens it with a bounded lock wait, runs one short
// transaction and closes it. Callers never see a transaction or a bbolt slice.
// Nothing here imports Fyne or writes to os.Stdout.
package store
