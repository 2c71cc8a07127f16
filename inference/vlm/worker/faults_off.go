//go:build !faultinject

package worker

import "github.com/shoebox-app/shoebox/inference/vlm/protocol"

// FaultsCompiled says whether this build can be told to misbehave through
// SHOEBOX_WORKER_* variables: only test builds (-tags faultinject) can, so
// the shipped binary ignores them.
const FaultsCompiled = false

func testFault(string)                                             {}
func testRefusal(protocol.WorkerRequest, *protocol.WorkerResponse) {}
func testBang(*protocol.WorkerResponse)                            {}
