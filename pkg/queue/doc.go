// Package queue holds what the SQS-fed functions share: the FIFO batch
// handling of an event source mapping with ReportBatchItemFailures, the
// compact message codec, and sending to a FIFO queue.
package queue
