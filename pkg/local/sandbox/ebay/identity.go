package ebay

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// User is an eBay user as the Commerce Identity API's getUser answers it (the fields the
// sandbox keeps).
type User struct {
	UserID                    string `json:"userId"`
	Username                  string `json:"username"`
	AccountType               string `json:"accountType"`
	RegistrationMarketplaceID string `json:"registrationMarketplaceId"`
	Status                    string `json:"status"`
}

// User is the seller's eBay user: a userId eBay never changes (the sandbox's is made of the
// seller's client id) and its username.
func (sl *Seller) User() User {
	sum := sha256.Sum256([]byte(sl.ClientID))
	return User{UserID: "u" + hex.EncodeToString(sum[:5]), Username: "sandbox_" + strings.ToLower(sl.ClientID),
		AccountType: "INDIVIDUAL", RegistrationMarketplaceID: sl.Marketplace, Status: "CONFIRMED"}
}

// getUser answers the seller's eBay user, on whatever marketplace the call names (a user is
// eBay's, not a marketplace's).
func (s *Sandbox) getUser(w http.ResponseWriter, _ *http.Request, sl *Seller) {
	sandbox.WriteJSON(w, http.StatusOK, sl.User())
}
