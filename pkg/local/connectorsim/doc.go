// Package connectorsim is a stand-in channel connector for the local stack: a pretend
// marketplace that reads the channel outbox queue (listing quantities and shipment tracking
// multisell pushes to channels), keeps a simulated channel per account and channel in a JSON
// file, and answers each message with a result on the channel inbox queue, as a real
// connector would.
//
// It stands for software outside multisell, so it reads and writes the documented JSON of the
// two queues with pkg/wire's types (the leaf contract every connector uses) and imports
// nothing of multisell's domains. The formats, the
// files and how `make run` starts it are in docs/local-stack.md ("The connector sim").
package connectorsim
