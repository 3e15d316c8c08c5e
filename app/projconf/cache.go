package projconf

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Cache holds a project's configuration and reads .trestle.json again
// when the file's time or size changed on disk. Safe for concurrent use.
type Cache struct {
	root string

	mu    sync.Mutex
	mod   time.Time
	size  int64
	conf  Config
	err   error
	valid bool
	// onReload, when set, hears of each configuration read after the first.
	onReload func(Config)
}

// NewCache returns the cache of the project at root; nothing is read
// until the first Get.
func NewCache(root string) *Cache { return &Cache{root: root} }

// OnReload sets fn to hear of each configuration read after the first
// (the evaluator takes new selections this way). fn runs inside Get, with
// the cache locked: it must not call Get.
func (c *Cache) OnReload(fn func(Config)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onReload = fn
}

// Get returns the configuration (the defaults when the file is malformed)
// and the file's problem, if any.
func (c *Cache) Get() (Config, error) {
	var mod time.Time
	var size int64
	if info, err := os.Stat(filepath.Join(c.root, FileName)); err == nil {
		mod, size = info.ModTime(), info.Size()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid || !mod.Equal(c.mod) || size != c.size {
		reload := c.valid
		c.conf, c.err = Load(c.root)
		c.mod, c.size, c.valid = mod, size, true
		if reload && c.onReload != nil {
			c.onReload(c.conf)
		}
	}
	return c.conf, c.err
}
