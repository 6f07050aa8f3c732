package voices

import (
	"context"

	"github.com/lectern/lectern/shared/fault"
)

// Store is the voice library's port. Adapters: sqlitevoices (a file several
// local processes share), tablevoices (the shared DynamoDB voice table, or
// any store.Table) and remotevoices (another local instance's library, over
// HTTP). All pass the suite in voicetest.
type Store interface {
	// Get returns the voice or an error matching ErrNotFound.
	Get(ctx context.Context, id string) (Voice, error)
	// Create adds v with Version 1 and returns it as stored; an id already
	// taken is ErrExists.
	Create(ctx context.Context, v Voice) (Voice, error)
	// Update replaces the voice whose stored version is v.Version and
	// returns it with the next version; ErrNotFound when it is gone,
	// ErrStale when another write came first.
	Update(ctx context.Context, v Voice) (Voice, error)
	// Delete removes the voice; version 0 removes any version, else it must
	// match (ErrStale). A missing voice is ErrNotFound.
	Delete(ctx context.Context, id string, version int64) error
	// Import creates every voice whose id is absent, leaves the others as
	// they are, and answers how many it created. Running it twice, or in
	// two processes at once, creates each voice once.
	Import(ctx context.Context, vs []Voice) (int, error)
	// Search answers one page of the voices q selects, in Sort's order, with
	// the total they number.
	Search(ctx context.Context, q Query) (Result, error)
}

// ErrNoLibrary: this server has no voice library configured.
var ErrNoLibrary = fault.New(fault.Unavailable, "no voice library is configured (LECTERN_VOICE_TABLE in AWS)")

// Unconfigured is the Store of a server without a voice library: every call
// answers ErrNoLibrary, so the operations exist and say what is missing.
type Unconfigured struct{}

var _ Store = Unconfigured{}

func (Unconfigured) Get(context.Context, string) (Voice, error)    { return Voice{}, ErrNoLibrary }
func (Unconfigured) Create(context.Context, Voice) (Voice, error)  { return Voice{}, ErrNoLibrary }
func (Unconfigured) Update(context.Context, Voice) (Voice, error)  { return Voice{}, ErrNoLibrary }
func (Unconfigured) Delete(context.Context, string, int64) error   { return ErrNoLibrary }
func (Unconfigured) Import(context.Context, []Voice) (int, error)  { return 0, ErrNoLibrary }
func (Unconfigured) Search(context.Context, Query) (Result, error) { return Result{}, ErrNoLibrary }
