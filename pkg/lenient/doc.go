// Package lenient reads request bodies the way multisell promises clients:
// lenient in, strict out. A body must be one JSON object of valid UTF-8, at
// most 1 MiB; its members are decoded on demand, so a rule can tell an absent
// member from an explicit null, numbers may come as numeric strings, text
// may come as a number, and every type error is an errs.Invalid that names
// the member. Unknown members are ignored. See docs/api-conventions.md.
package lenient
