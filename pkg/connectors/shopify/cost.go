package shopify

import (
	"encoding/json"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Shopify's published rules of a query's requested cost (docs/connectors.md, "Query cost"):
// the most a single query may request, whatever the bucket holds (more is refused
// MAX_COST_EXCEEDED), and what a mutation costs.
const (
	maxQueryCost = 1000
	mutationCost = 10
)

// OperationCost is the requested cost of op with vars by Shopify's published rules: a
// scalar or enum field costs 0; an object field 1 and its selection; a connection or list
// sized by first or last costs 2 and, for each of those nodes, 1 and the node's selection
// (so nested connections multiply); a mutation costs mutationCost per root field. A
// fragment adds its selection. The sandbox charges by it; the connector sizes its pages
// with it. Fragment spreads must be linked to their definitions (as validation does).
func OperationCost(op *ast.OperationDefinition, vars map[string]any) int {
	if op.Operation == ast.Mutation {
		return mutationCost * len(op.SelectionSet)
	}
	return selectionCost(op.SelectionSet, vars)
}

// selectionCost is the cost of a selection set's fields.
func selectionCost(set ast.SelectionSet, vars map[string]any) int {
	n := 0
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			n += fieldCost(sel, vars)
		case *ast.InlineFragment:
			n += selectionCost(sel.SelectionSet, vars)
		case *ast.FragmentSpread:
			if sel.Definition != nil {
				n += selectionCost(sel.Definition.SelectionSet, vars)
			}
		}
	}
	return n
}

// fieldCost is the cost of one field and its selection.
func fieldCost(f *ast.Field, vars map[string]any) int {
	if len(f.SelectionSet) == 0 {
		return 0 // a scalar or an enum
	}
	size, sized := sizeOf(f, vars)
	if !sized {
		return 1 + selectionCost(f.SelectionSet, vars)
	}
	return 2 + size*(1+nodeCost(f.SelectionSet, vars))
}

// nodeCost is the cost of a node of a sized field beyond its own point: the selection of
// its nodes or edges' node for a connection (pageInfo is of the connection's 2), else the
// field's selection (a list).
func nodeCost(set ast.SelectionSet, vars map[string]any) int {
	conn, n := false, 0
	for _, sel := range set {
		f, ok := sel.(*ast.Field)
		if !ok {
			continue
		}
		switch f.Name {
		case "nodes":
			conn, n = true, max(n, selectionCost(f.SelectionSet, vars))
		case "edges":
			conn = true
			for _, e := range f.SelectionSet {
				if node, ok := e.(*ast.Field); ok && node.Name == "node" {
					n = max(n, selectionCost(node.SelectionSet, vars))
				}
			}
		case "pageInfo":
			conn = true
		}
	}
	if conn {
		return n
	}
	return selectionCost(set, vars)
}

// sizeOf is the first or last argument of a field (variables put in), and whether it has one.
func sizeOf(f *ast.Field, vars map[string]any) (int, bool) {
	for _, a := range f.Arguments {
		if a.Name != "first" && a.Name != "last" {
			continue
		}
		v, err := a.Value.Value(vars)
		if err != nil {
			return 0, true
		}
		switch x := v.(type) {
		case int64:
			return int(x), true
		case int:
			return x, true
		case float64:
			return int(x), true
		case json.Number:
			n, _ := x.Int64()
			return int(n), true
		}
		return 0, true
	}
	return 0, false
}

// queryCost is the requested cost of one of the connector's queries with vars. Its queries
// are constants that parse (their tests hold it), so a parse error is a bug: it panics.
func queryCost(query string, vars map[string]any) int {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		panic(fmt.Sprintf("shopify: a query of the connector does not parse: %v", err))
	}
	LinkFragments(doc)
	return OperationCost(doc.Operations[0], vars)
}

// LinkFragments sets each fragment spread's definition in doc, as validation does (a
// document parsed without a schema has them unset).
func LinkFragments(doc *ast.QueryDocument) {
	var link func(ast.SelectionSet)
	link = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch sel := sel.(type) {
			case *ast.Field:
				link(sel.SelectionSet)
			case *ast.InlineFragment:
				link(sel.SelectionSet)
			case *ast.FragmentSpread:
				sel.Definition = doc.Fragments.ForName(sel.Name)
			}
		}
	}
	for _, op := range doc.Operations {
		link(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		link(f.SelectionSet)
	}
}

// fit is the largest size in [1, most] the variable key of query (with the other vars) may
// take for the query to cost at most budget: the page size derived from the cost. The cost
// is affine in a size, so two reckonings give it.
func fit(query string, vars map[string]any, key string, most, budget int) int {
	with := func(n int) int {
		v := map[string]any{key: n}
		for k, x := range vars {
			if k != key {
				v[k] = x
			}
		}
		return queryCost(query, v)
	}
	c0, c1 := with(0), with(1)
	if c1 <= c0 {
		return most
	}
	return min(most, max(1, (budget-c0)/(c1-c0)))
}
