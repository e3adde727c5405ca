fn f() { let a = countOneBits(7u); let b = countLeadingZeros(1i); let c = firstLeadingBit(8u); let d = reverseBits(1u); }
