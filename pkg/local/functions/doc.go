// Package functions maps each Lambda function, by its folder under
// functions/, to the handler its main starts, so that the local stack and
// the tests run every function in one process. A function's main names its
// handler itself (functions/<name>/main.go); this table holds the same
// expressions, and its tests hold the two to each other. Only the local
// stack and the tests import it: a function's binary never links the table,
// so it links only what its own handler reaches.
package functions
