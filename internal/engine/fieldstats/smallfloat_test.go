package fieldstats

import "testing"

// The encoding keeps order and never rounds a length up.
func TestLengthByteIsMonotonic(t *testing.T) {
	prev := byte(0)
	for n := 0; n < 1<<20; n++ {
		b := LengthByte(n)
		if b < prev || ByteLength(b) > n {
			t.Fatalf("length %d: byte %d (previous %d) decodes to %d", n, b, prev, ByteLength(b))
		}
		prev = b
	}
}
