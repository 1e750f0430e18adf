// Package emulators starts and stops the pinned local emulators of the multisell local
// stack as child processes on free loopback ports: Dynoxide (DynamoDB), fauxqs (SQS) and
// AWS DynamoDB Local (DynamoDB, for fidelity checks). They are installed by `make deps`
// under emulators/node_modules. Each runs in its own process group, which Stop kills; on
// Linux the children also die with the process that started them.
package emulators
