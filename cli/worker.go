package cli

import (
	"fmt"

	"github.com/shoebox-app/shoebox/inference/vlm/worker"
)

func init() {
	register("worker", "(internal) the model worker process the app and extract start", runWorker)
}

// runWorker serves the worker protocol on stdin/stdout; the parent starts it.
func runWorker(env Env, args []string) int {
	if err := worker.Serve(env.Stdin, env.Stdout); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox worker:", err)
		return 1
	}
	return 0
}
