// Package emulators starts and stops the pinned local emulators of the multisell local
// stack as child processes on free loopback ports: Dynoxide (DynamoDB), fauxqs (SQS),
// local-kms (KMS) and AWS DynamoDB Local (DynamoDB, for fidelity checks). The npm ones are
// installed by `make deps` under emulators/node_modules; local-kms is a Go module, pinned
// by go.mod's tool directive and built by `go tool`. Each runs in its own process group,
// which Stop kills; on Linux the children also die with the process that started them.
package emulators
