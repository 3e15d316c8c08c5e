package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"trestle/app/errdefs"
	"trestle/app/permission"
)

// ProjectState is what Trestle remembers per project: the agent policy and
// the window's layout, restored on the next start.
type ProjectState struct {
	Policy     string   `json:"policy,omitempty"` // PolicyAsk (default), PolicyAllow or PolicyDeny
	Width      float32  `json:"width,omitempty"`
	Height     float32  `json:"height,omitempty"`
	TreeSplit  float64  `json:"tree_split,omitempty"`
	PaneSplit  float64  `json:"pane_split,omitempty"`
	Tabs       []string `json:"tabs,omitempty"`
	ActiveTab  string   `json:"active_tab,omitempty"`
	Selection  string   `json:"selection,omitempty"`
	LastOpened string   `json:"last_opened,omitempty"`
}

// ProjectState returns what is remembered of project dir; a project never
// seen before has the zero state.
func (s *Store) ProjectState(dir string) (ProjectState, error) {
	var st ProjectState
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketProjects).Get([]byte(dir)); v != nil {
			return json.Unmarshal(v, &st)
		}
		return nil
	})
	if err != nil {
		return ProjectState{}, fmt.Errorf("read the state of project %s: %w", dir, err)
	}
	return st, nil
}

// SaveProjectState stores st for project dir.
func (s *Store) SaveProjectState(dir string, st ProjectState) error {
	if st.Policy != "" && !permission.ValidPolicy(st.Policy) {
		return fmt.Errorf("policy %q is not ask, allow or deny: %w", st.Policy, errdefs.ErrInvalid)
	}
	return s.putJSON(bucketProjects, dir, st, "save the state of project "+dir)
}

// RecentProjects returns the remembered projects, most recent first, and
// forgets the ones whose folder no longer exists. It only reads the store
// unless there is one to forget: the window lists them as it starts, and a
// write would make every reader, in this process and others, wait for it.
func (s *Store) RecentProjects() ([]string, error) {
	type recent struct {
		dir string
		at  time.Time
	}
	var list []recent
	var gone []string
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRecent).ForEach(func(k, v []byte) error {
			if !isDir(string(k)) {
				gone = append(gone, string(k))
				return nil
			}
			at, _ := time.Parse(time.RFC3339Nano, string(v))
			list = append(list, recent{string(k), at})
			return nil
		})
	})
	if err == nil && len(gone) > 0 {
		err = s.forgetGone(gone)
	}
	if err != nil {
		return nil, fmt.Errorf("read recent projects: %w", err)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].at.After(list[j].at) })
	dirs := make([]string, len(list))
	for i, r := range list {
		dirs[i] = r.dir
	}
	return dirs, nil
}

// forgetGone removes the recent projects of dirs whose folder still does
// not exist (one may have come back since it was read).
func (s *Store) forgetGone(dirs []string) error {
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRecent)
		var err error
		for _, dir := range dirs {
			if !isDir(dir) {
				err = errors.Join(err, b.Delete([]byte(dir)))
			}
		}
		return err
	})
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// TouchProject records dir as opened now.
func (s *Store) TouchProject(dir string) error {
	err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRecent).Put([]byte(dir), []byte(time.Now().UTC().Format(time.RFC3339Nano)))
	})
	if err != nil {
		return fmt.Errorf("record recent project %s: %w", dir, err)
	}
	return nil
}

// LastProject returns the most recently opened project that still exists,
// or ErrNotFound.
func (s *Store) LastProject() (string, error) {
	dirs, err := s.RecentProjects()
	if err != nil {
		return "", err
	}
	if len(dirs) == 0 {
		return "", fmt.Errorf("no recent project: %w", errdefs.ErrNotFound)
	}
	return dirs[0], nil
}
