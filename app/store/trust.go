package store

import (
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TrustedProject is a project folder the person trusts (package trust),
// and since when.
type TrustedProject struct {
	Dir   string
	Since time.Time
}

// ProjectTrusted reports whether the person trusts project folder dir.
// Only dir itself counts: trusting a folder trusts no other.
func (s *Store) ProjectTrusted(dir string) (bool, error) {
	var trusted bool
	err := s.view(func(tx *bolt.Tx) error {
		trusted = tx.Bucket(bucketTrust).Get([]byte(dir)) != nil
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("read whether project %s is trusted: %w", dir, err)
	}
	return trusted, nil
}

// SetProjectTrusted remembers that the person trusts project folder dir,
// or forgets it (revokes) when trusted is false.
func (s *Store) SetProjectTrusted(dir string, trusted bool) error {
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTrust)
		if !trusted {
			return b.Delete([]byte(dir))
		}
		if b.Get([]byte(dir)) != nil {
			return nil // trusted already: keep since when
		}
		return b.Put([]byte(dir), []byte(time.Now().UTC().Format(time.RFC3339Nano)))
	})
	if err != nil {
		verb := "trust"
		if !trusted {
			verb = "revoke the trust of"
		}
		return fmt.Errorf("%s project %s: %w", verb, dir, err)
	}
	return nil
}

// TrustedProjects lists the trusted project folders, sorted by folder.
func (s *Store) TrustedProjects() ([]TrustedProject, error) {
	var list []TrustedProject
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTrust).ForEach(func(k, v []byte) error {
			since, _ := time.Parse(time.RFC3339Nano, string(v))
			list = append(list, TrustedProject{Dir: string(k), Since: since})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list the trusted projects: %w", err)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Dir < list[j].Dir })
	return list, nil
}
