package evalworker

import (
	"math"
	"strconv"
)

// printFloat is a float as the runtime's print prints it, in the panic's
// report among others: since Go 1.26 as strconv's shortest 'g' ("1.5"),
// before as "+1.500000e+000". The worker is built with the project's
// toolchain, which is the one go run uses (runtimePrintsShortest, set by
// the go1.26 build tag).
func printFloat(v float64, bits int) string {
	if runtimePrintsShortest {
		return strconv.FormatFloat(v, 'g', -1, bits)
	}
	return legacyPrintFloat(v)
}

// printComplex is printFloat for a complex number: "(1+2i)", before Go
// 1.26 "(+1.000000e+000+2.000000e+000i)".
func printComplex(c complex128, bits int) string {
	if runtimePrintsShortest {
		return strconv.FormatComplex(c, 'g', -1, bits)
	}
	return "(" + legacyPrintFloat(real(c)) + legacyPrintFloat(imag(c)) + "i)"
}

// legacyPrintFloat is the runtime's printfloat before Go 1.26 (runtime/print.go),
// digit for digit: seven significant digits, rounded by adding half of the
// last one, and a three-digit exponent.
func legacyPrintFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	const n = 7 // digits printed
	var buf [n + 7]byte
	buf[0] = '+'
	e := 0 // exponent
	if v == 0 {
		if math.Signbit(v) {
			buf[0] = '-'
		}
	} else {
		if v < 0 {
			v = -v
			buf[0] = '-'
		}
		for v >= 10 { // normalize
			e++
			v /= 10
		}
		for v < 1 {
			e--
			v *= 10
		}
		h := 5.0 // round
		for i := 0; i < n; i++ {
			h /= 10
		}
		v += h
		if v >= 10 {
			e++
			v /= 10
		}
	}
	for i := 0; i < n; i++ { // +d.dddddde+ddd
		s := int(v)
		buf[i+2] = byte(s + '0')
		v -= float64(s)
		v *= 10
	}
	buf[1] = buf[2]
	buf[2] = '.'
	buf[n+2] = 'e'
	buf[n+3] = '+'
	if e < 0 {
		e = -e
		buf[n+3] = '-'
	}
	buf[n+4] = byte(e/100 + '0')
	buf[n+5] = byte(e/10)%10 + '0'
	buf[n+6] = byte(e%10) + '0'
	return string(buf[:])
}
