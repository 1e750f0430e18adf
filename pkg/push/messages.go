package push

import (
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// ParseOutcome reads what every result message says of the push: ok
// (required, true or false) and error (optional text). The domain reads
// what names the item and the version.
func ParseOutcome(obj lenient.Object) (Result, error) {
	ok, err := obj.Field("ok").Bool()
	if err != nil || ok == nil {
		return Result{}, errs.Invalid("ok must be true or false")
	}
	res := Result{OK: *ok}
	if res.Error, err = obj.Field("error").String(); err != nil {
		return Result{}, err
	}
	return res, nil
}
