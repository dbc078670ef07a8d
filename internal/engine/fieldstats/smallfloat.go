package fieldstats

import (
	"math"
	"math/bits"
)

// numFreeValues are the lengths Lucene's SmallFloat.intToByte4 encodes exactly (0 to 23).
var numFreeValues = 255 - longToInt4(math.MaxInt32)

// longToInt4 is Lucene's SmallFloat.longToInt4: a float-like encoding with 4
// significant bits.
func longToInt4(i uint64) int {
	numBits := 64 - bits.LeadingZeros64(i)
	if numBits < 4 {
		return int(i)
	}
	shift := numBits - 4
	encoded := int(i>>uint(shift)) & 0x07
	return encoded | (shift+1)<<3
}

// int4ToLong decodes longToInt4.
func int4ToLong(i int) uint64 {
	mantissa := uint64(i & 0x07)
	shift := i>>3 - 1
	if shift == -1 {
		return mantissa
	}
	return (mantissa | 0x08) << uint(shift)
}

// LengthByte is Lucene's norm of a field of length tokens: SmallFloat.intToByte4.
func LengthByte(length int) byte {
	if length < numFreeValues {
		return byte(length)
	}
	return byte(numFreeValues + longToInt4(uint64(length-numFreeValues)))
}

// ByteLength decodes LengthByte: SmallFloat.byte4ToInt.
func ByteLength(n byte) int {
	if int(n) < numFreeValues {
		return int(n)
	}
	return numFreeValues + int(int4ToLong(int(n)-numFreeValues))
}
