// Package layout holds the house rules of the tree as tests: every domain
// package has the same shape (handlers at the edge, storage in its own
// files, rules in between), the local stack and the test harness stay apart
// from the domains, and every link in the docs resolves. The rules are
// explained in docs/architecture.md.
package layout
