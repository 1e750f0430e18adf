package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// maxProductBytes bounds a product's own fields, as JSON. It keeps every
// item far below DynamoDB's 400 KB and a group with all its children below
// the 4 MB of one transaction.
const maxProductBytes = 32 << 10

// ProductInput is a validated upsert body (ParseProduct makes it): one
// change per field present in the body (absent fields are left as they
// are, null clears).
type ProductInput struct {
	changes []func(*Product)
	// hasName is whether the body sets a name (required on create).
	hasName bool
}

// ParseProduct validates an upsert body. A name may be set but never
// cleared; every other field may be cleared with null.
func ParseProduct(body lenient.Object) (ProductInput, error) {
	var in ProductInput
	for _, spec := range productFields {
		f := body.Field(spec.name)
		if !f.Present {
			continue
		}
		change, err := spec.parse(f)
		if err != nil {
			return ProductInput{}, err
		}
		if spec.name == "name" {
			var p Product
			change(&p)
			if p.Name == nil {
				return ProductInput{}, errs.Invalid("name can't be blank")
			}
			in.hasName = true
		}
		in.changes = append(in.changes, change)
	}
	return in, nil
}

// apply returns p with the input's changes.
func (in ProductInput) apply(p Product) Product {
	for _, change := range in.changes {
		change(&p)
	}
	return p
}

// checkSize refuses a product whose own fields exceed maxProductBytes.
func checkSize(p Product) error {
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("marshal product: %w", err)
	}
	if len(b) > maxProductBytes {
		return errs.Invalid("product is too large: %d bytes of JSON (maximum is %d)", len(b), maxProductBytes)
	}
	return nil
}
