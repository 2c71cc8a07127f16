package library

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// A receipt being read carries a claim: which program reads it (host, pid
// and that pid's start time, so a reused pid is not mistaken for it) and a
// lease the reader renews while it lives. Any program may take back a receipt
// whose reader has died or whose lease ran out, so a killed run never leaves
// receipts stuck "extracting".

// LeaseTime is how long a claim holds without renewal.
var LeaseTime = 2 * time.Minute

// processOwner names this program in claims.
var processOwner = func() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s|%d|%s", host, os.Getpid(), processStart(os.Getpid()))
}()

// processStart is the start time of a process in clock ticks since boot
// (Linux /proc), "" where it cannot be read.
func processStart(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The command name (field 2) may hold spaces; fields resume after ")".
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19] // field 22, starttime
}

// ownerGone reports whether the program named in a claim has certainly
// ended: it ran on this host and its pid is gone or now names another process.
func ownerGone(owner string) bool {
	parts := strings.Split(owner, "|")
	if len(parts) != 3 {
		return true
	}
	if host, _ := os.Hostname(); parts[0] != host {
		return false // another machine sharing the folder: only its lease tells
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return true
	}
	if !fsutil.ProcessAlive(pid) {
		return true
	}
	if parts[2] != "" {
		if start := processStart(pid); start != "" && start != parts[2] {
			return true
		}
	}
	return false
}

// reclaimTx puts receipts whose readers are gone or whose leases ran out
// back in the queue, and returns how many.
func (l *Library) reclaimTx(tx *sql.Tx) (int, error) {
	rows, err := tx.Query(`SELECT id, claim_owner, claim_until FROM receipts WHERE status = ?`, string(StatusExtracting))
	if err != nil {
		return 0, err
	}
	type claim struct {
		id           int64
		owner, until string
	}
	var claims []claim
	for rows.Next() {
		var c claim
		if err := rows.Scan(&c.id, &c.owner, &c.until); err != nil {
			rows.Close()
			return 0, err
		}
		claims = append(claims, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	now := l.now()
	n := 0
	for _, c := range claims {
		until, err := time.Parse(time.RFC3339Nano, c.until)
		abandoned := c.owner == "" || err != nil || now.After(until) || (c.owner != processOwner && ownerGone(c.owner))
		if !abandoned {
			continue
		}
		if err := l.setStatusTx(tx, c.id, StatusQueued, "system", ""); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// renewClaims extends the leases of every receipt this program is reading,
// every quarter lease, until the library is closed.
func (l *Library) renewClaims(stop <-chan struct{}) {
	t := time.NewTicker(LeaseTime / 4)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			// A renewal that fails is tried again at the next tick; the
			// lease outlasts several.
			_ = l.write(context.Background(), func(tx *sql.Tx) error {
				_, err := tx.Exec(`UPDATE receipts SET claim_until = ? WHERE status = ? AND claim_owner = ?`,
					l.leaseEnd(), string(StatusExtracting), processOwner)
				return err
			})
		}
	}
}

func (l *Library) leaseEnd() string { return l.now().Add(LeaseTime).UTC().Format(time.RFC3339Nano) }

// startRenewing starts the lease heartbeat on the first claim.
func (l *Library) startRenewing() {
	l.renewOnce.Do(func() {
		l.stopRenew = make(chan struct{})
		go l.renewClaims(l.stopRenew)
	})
}
