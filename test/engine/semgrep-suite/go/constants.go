package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
	"os"
)

const signingKey = "0123456789abcdef"

func signers() []hash.Hash {
	return []hash.Hash{
		// ruleid: go-hardcoded-hmac-key
		hmac.New(sha256.New, []byte(signingKey)),
		// ruleid: go-hardcoded-hmac-key
		hmac.New(sha256.New, []byte("fedcba9876543210")),
		// ok: go-hardcoded-hmac-key
		hmac.New(sha256.New, []byte(os.Getenv("SIGNING_KEY"))),
	}
}
