package tokens

import (
	legacy "crypto/md5"
	"crypto/sha256"
	mrand "math/rand"
)

func fingerprint(data []byte) ([16]byte, [32]byte) {
	// ruleid: go-md5-used
	weak := legacy.Sum(data)
	// ok: go-md5-used
	strong := sha256.Sum256(data)
	return weak, strong
}

func pick(n int) int {
	// ruleid: go-math-rand
	return mrand.Intn(n)
}
