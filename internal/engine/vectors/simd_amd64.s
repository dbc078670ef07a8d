#include "textflag.h"

// SUM8 adds the eight 32-bit sums of Y0 into AX.
#define SUM8 \
	VEXTRACTI128 $1, Y0, X1 \
	VPADDD       X1, X0, X0 \
	VPSHUFD      $0x4E, X0, X1 \
	VPADDD       X1, X0, X0 \
	VPSHUFD      $0xB1, X0, X1 \
	VPADDD       X1, X0, X0 \
	VMOVD        X0, AX \
	VZEROUPPER

// Each step widens 16 codes of a and of b to 16-bit lanes (VPMOVSXBW), multiplies them
// and adds neighbouring products into eight 32-bit sums (VPMADDWD): two such steps, into
// two accumulators, per 32 codes.

// func dotInt8AVX2(a, b *int8, n int) int32
TEXT ·dotInt8AVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y3, Y3, Y3

dotloop:
	CMPQ CX, $32
	JL   dotdone
	VPMOVSXBW (SI), Y1
	VPMOVSXBW (DI), Y2
	VPMADDWD  Y1, Y2, Y1
	VPADDD    Y1, Y0, Y0
	VPMOVSXBW 16(SI), Y4
	VPMOVSXBW 16(DI), Y5
	VPMADDWD  Y4, Y5, Y4
	VPADDD    Y4, Y3, Y3
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $32, CX
	JMP       dotloop

dotdone:
	VPADDD       Y3, Y0, Y0
	SUM8
	MOVL AX, ret+24(FP)
	RET

// func squareInt8AVX2(a, b *int8, n int) int32
TEXT ·squareInt8AVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y3, Y3, Y3

sqloop:
	CMPQ CX, $32
	JL   sqdone
	VPMOVSXBW (SI), Y1
	VPMOVSXBW (DI), Y2
	VPSUBW    Y2, Y1, Y1
	VPMADDWD  Y1, Y1, Y1
	VPADDD    Y1, Y0, Y0
	VPMOVSXBW 16(SI), Y4
	VPMOVSXBW 16(DI), Y5
	VPSUBW    Y5, Y4, Y4
	VPMADDWD  Y4, Y4, Y4
	VPADDD    Y4, Y3, Y3
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $32, CX
	JMP       sqloop

sqdone:
	VPADDD       Y3, Y0, Y0
	SUM8
	MOVL AX, ret+24(FP)
	RET

// func dotF32AVX2(a, b *float32, n int) float32
TEXT ·dotF32AVX2(SB), NOSPLIT, $0-28
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

floop:
	CMPQ        CX, $16
	JL          fdone
	VMOVUPS     (SI), Y2
	VMOVUPS     32(SI), Y3
	VFMADD231PS (DI), Y2, Y0
	VFMADD231PS 32(DI), Y3, Y1
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $16, CX
	JMP         floop

fdone:
	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+24(FP)
	RET

// VPDPBUSD multiplies 64 unsigned bytes of u by the 64 signed bytes of s and adds each
// four neighbouring products into one of sixteen 32-bit sums: two accumulators, so that
// one step does not wait on the last.
//
// A scan compares one query with many vectors: the VPDPBUSD steps over one vector after
// another in one call, each vector's sixteen sums reduced and stored, so that a scan
// makes no call a vector and its reads of codes run back to back (a walk's one vector is
// a call of one row).

// func dotU8I8VNNIRows(u *byte, codes *int8, dims int, rows *int32, n int, out *int32)
TEXT ·dotU8I8VNNIRows(SB), NOSPLIT, $0-48
	MOVQ u+0(FP), SI
	MOVQ codes+8(FP), DI
	MOVQ dims+16(FP), DX
	MOVQ rows+24(FP), R8
	MOVQ n+32(FP), R9
	MOVQ out+40(FP), R10

rowsloop:
	TESTQ    R9, R9
	JZ       rowsdone
	MOVLQSX  (R8), AX
	IMULQ    DX, AX
	LEAQ     (DI)(AX*1), BX
	MOVQ     SI, R11
	MOVQ     DX, CX
	VPXORD   Z0, Z0, Z0
	VPXORD   Z3, Z3, Z3

rowsstep2:
	CMPQ     CX, $128
	JL       rowsstep1
	VMOVDQU8 (R11), Z1
	VMOVDQU8 64(R11), Z2
	VPDPBUSD (BX), Z1, Z0
	VPDPBUSD 64(BX), Z2, Z3
	ADDQ     $128, R11
	ADDQ     $128, BX
	SUBQ     $128, CX
	JMP      rowsstep2

rowsstep1:
	CMPQ     CX, $64
	JL       rowssum
	VMOVDQU8 (R11), Z1
	VPDPBUSD (BX), Z1, Z0

rowssum:
	VPADDD        Z3, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD        Y1, Y0, Y0
	VEXTRACTI128  $1, Y0, X1
	VPADDD        X1, X0, X0
	VPSHUFD       $0x4E, X0, X1
	VPADDD        X1, X0, X0
	VPSHUFD       $0xB1, X0, X1
	VPADDD        X1, X0, X0
	VMOVD         X0, (R10)
	ADDQ          $4, R8
	ADDQ          $4, R10
	DECQ          R9
	JMP           rowsloop

rowsdone:
	VZEROUPPER
	RET
