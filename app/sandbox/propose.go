package sandbox

import (
	"context"
	"fmt"
	"unicode/utf8"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/project"
)

// Proposal is the session's changes as a change set proposal (title,
// client and session from hdr), against the project as base reads it now:
// a file the agent made or changed is created or replaced whole, a file it
// deleted is deleted. A change that leaves the project's file as it is
// now is left out. Skipped lists the files a change set cannot hold (not
// UTF-8 text), with the reason. The proposal has no changes when the
// agent changed nothing.
func (s *Stage) Proposal(ctx context.Context, p *project.Project, base changeset.ReadFunc, hdr changeset.Proposal) (in changeset.Proposal, skipped []string, err error) {
	changes, err := s.Changes(ctx)
	if err != nil {
		return hdr, nil, err
	}
	in = hdr
	in.Changes = nil
	for _, c := range changes {
		cp, err := p.ResolveShown(c.Path)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", c.Path, err))
			continue
		}
		text, exists, err := base(cp)
		if err != nil {
			return hdr, skipped, fmt.Errorf("read %s in %s: %w", c.Path, p.Root, err)
		}
		switch {
		case c.Deleted && exists:
			in.Changes = append(in.Changes, changeset.Change{Path: c.Path, Action: changeset.ActionDelete})
		case c.Deleted:
		case c.TooLarge:
			skipped = append(skipped, fmt.Sprintf("%s: larger than a change set may hold (%d MiB in all)", c.Path, changeset.MaxTotalBytes>>20))
		case !utf8.Valid(c.Content) || project.IsBinary(c.Content):
			skipped = append(skipped, c.Path+": not text; a change set holds text files only")
		case exists && text == string(c.Content):
		case exists:
			in.Changes = append(in.Changes, changeset.Change{Path: c.Path, Action: changeset.ActionReplace, Content: string(c.Content)})
		default:
			in.Changes = append(in.Changes, changeset.Change{Path: c.Path, Action: changeset.ActionCreate, Content: string(c.Content)})
		}
	}
	return in, skipped, nil
}

// Propose stores the session's changes (see Proposal) as one pending
// change set in m and returns it. It returns an error wrapping
// errdefs.ErrNotFound when the agent changed nothing, and what m.Propose
// returns when the set is refused.
func (s *Stage) Propose(ctx context.Context, m *changeset.Manager, base changeset.ReadFunc, hdr changeset.Proposal) (changeset.ChangeSet, []string, error) {
	in, skipped, err := s.Proposal(ctx, m.Project(), base, hdr)
	if err != nil {
		return changeset.ChangeSet{}, skipped, err
	}
	if len(in.Changes) == 0 {
		return changeset.ChangeSet{}, skipped, fmt.Errorf("the agent changed no file of %s: %w", s.Project, errdefs.ErrNotFound)
	}
	cs, err := m.Propose(base, in)
	return cs, skipped, err
}
