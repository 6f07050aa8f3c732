package jobs

import (
	"fmt"
	"slices"
	"sync"
)

// Registry maps job kinds to handlers. Wiring fills it after building the
// services whose methods are the handlers (they in turn need the Queue), so it
// can be added to after construction; lookups are safe from any goroutine.
type Registry struct {
	mu       sync.RWMutex
	handlers map[string]Handler
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{handlers: map[string]Handler{}} }

// Register adds the handler for kind. A bad kind, a nil handler or a kind
// registered twice is ErrInvalid: two features claiming one kind is a wiring bug.
func (r *Registry) Register(kind string, h Handler) error {
	if err := ValidateKind(kind); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	if h == nil {
		return fmt.Errorf("register %s: nil handler: %w", kind, ErrInvalid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.handlers[kind]; dup {
		return fmt.Errorf("register %s: kind already registered: %w", kind, ErrInvalid)
	}
	r.handlers[kind] = h
	return nil
}

// Handler returns the handler for kind, or ErrUnknownKind.
func (r *Registry) Handler(kind string) (Handler, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, ok := r.handlers[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	return h, nil
}

// Kinds lists the registered kinds, sorted.
func (r *Registry) Kinds() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	kinds := make([]string, 0, len(r.handlers))
	for k := range r.handlers {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}
