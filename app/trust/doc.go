// Package trust is project trust, as the person knows it from VS Code's
// Workspace Trust: a project folder is untrusted until the person trusts
// it; the choice is remembered per folder in the store and can be revoked.
//
// In an untrusted project nothing the project's files configure runs:
// git runs with the repository's own settings turned off (package
// gitstatus), .trestle.json's tasks and selection environments are shown
// and not used (projconf.Config.Untrusted), and the evaluator is told
// (Project.Trusted) that no native project code may run. A trusted project
// is as before.
//
// Plain Go: no Fyne, nothing on os.Stdout.
package trust
