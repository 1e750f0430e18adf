package store

import (
	"regexp"

	"github.com/google/uuid"
)

// NewID returns a new time-ordered UUID (version 7): ids of one kind sort by
// creation when used as sort keys.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ValidID reports whether s has the shape of an id NewID makes; anything
// else can be answered "not found" without a read.
func ValidID(s string) bool { return uuidPattern.MatchString(s) }
