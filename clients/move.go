package clients

import (
	"context"
	"fmt"

	"github.com/shoebox-app/shoebox/library"
)

// Move moves receipt id from one client's library to another's, as an
// explicit action: the receipt arrives in the target with its fields,
// status, coding and history, the move is recorded in its history, and
// only then does it leave the source. It returns the receipt's ID in the
// target.
func Move(ctx context.Context, from, to *library.Library, fromName, toName string, id int64) (int64, error) {
	if from.Dir() == to.Dir() {
		return 0, fmt.Errorf("receipt %d is already in %s", id, toName)
	}
	rec, err := from.Get(id)
	if err != nil {
		return 0, err
	}
	hist, err := from.History(id)
	if err != nil {
		return 0, err
	}
	coding, err := from.Coding(id)
	if err != nil {
		return 0, err
	}
	notes, err := from.ReadingNotes(id)
	if err != nil {
		return 0, err
	}
	newID, err := to.Receive(ctx, library.Arrival{
		Record: rec, Path: from.OriginalPath(rec), History: hist, Coding: coding, Notes: notes,
		Note: fmt.Sprintf("moved from client %s (receipt %d) to client %s", fromName, id, toName),
	})
	if err != nil {
		return 0, fmt.Errorf("receipt %d could not move to %s: %w", id, toName, err)
	}
	if err := from.Release(ctx, id); err != nil {
		return newID, fmt.Errorf("receipt %d is now receipt %d of %s, but could not leave %s: %w", id, newID, toName, fromName, err)
	}
	return newID, nil
}
