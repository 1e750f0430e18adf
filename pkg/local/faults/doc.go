// Package faults holds the fault tests of the local stack (its tests only): the whole stack
// killed with SIGKILL at random moments under load and started again, and each emulator
// paused with SIGSTOP under load. They run the real `multisell serve` binary on a data
// folder of their own and hold the service to what docs/inventory.md promises: an accepted
// adjustment is applied exactly once and never half, a request is never reported queued
// for long, and an outage is answered 503 with Retry-After within the function's timeout.
package faults
