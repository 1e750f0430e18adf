// Package conformance holds black-box tests of the cross-cutting HTTP contracts (the
// envelope, authentication and rate limits of docs/decisions.md) over every route of
// template.yaml: authentication, content types, body handling, pagination, unknown ids,
// tenant isolation, time formats and unknown routes. The routes are read from the
// template with pkg/local/template, so a route added there is covered without touching
// these tests; a route whose body or path parameter the tests cannot build fails with a
// message saying what to add.
//
// One test holds the document to what integrators generate from it: the Go client of
// oapi-codegen (pinned in testdata/goclient) compiles and its calls work (docs/clients.md).
//
// The tests run against the local stack of pkg/testenv (every response is also validated
// against docs/openapi.yaml) and contain no production code.
package conformance
