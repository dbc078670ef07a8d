package vectors

import (
	"encoding/binary"
	"unsafe"
)

// View32 views little-endian 4-byte values (a segment's document numbers and vectors)
// in place when it can (aligned, on a little-endian machine), and copies them otherwise.
func View32[T uint32 | int32 | float32](b []byte) []T {
	n := len(b) / 4
	if n == 0 {
		return nil
	}
	if nativeLittle && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]T, n)
	for i := range out {
		*(*uint32)(unsafe.Pointer(&out[i])) = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

var nativeLittle = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
