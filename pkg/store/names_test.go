package store

import (
	"reflect"
	"testing"
)

func TestNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		exprs []string
		want  map[string]string
	}{
		{"none", []string{"PK = :pk"}, nil},
		{"empty", nil, nil},
		{"set", []string{"SET #on_hand = :x, #available = :x - #reserved"},
			map[string]string{"#on_hand": "on_hand", "#available": "available", "#reserved": "reserved"}},
		{"across expressions", []string{"SET #a = :a", "attribute_exists(#b) AND #a <> :a"},
			map[string]string{"#a": "a", "#b": "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Names(tt.exprs...); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Names(%q) = %v, want %v", tt.exprs, got, tt.want)
			}
		})
	}
}
