package keys

import (
	"crypto/rand"
	"crypto/rsa"

	"golang.org/x/crypto/bcrypt"
)

func generate() (*rsa.PrivateKey, *rsa.PrivateKey, error) {
	// ruleid: go-short-rsa-key
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		return nil, nil, err
	}
	// ok: go-short-rsa-key
	strong, err := rsa.GenerateKey(rand.Reader, 4096)
	return weak, strong, err
}

func hash(password []byte) ([]byte, []byte, error) {
	// ruleid: go-low-bcrypt-cost
	fast, err := bcrypt.GenerateFromPassword(password, 4)
	if err != nil {
		return nil, nil, err
	}
	// ok: go-low-bcrypt-cost
	slow, err := bcrypt.GenerateFromPassword(password, 12)
	return fast, slow, err
}
