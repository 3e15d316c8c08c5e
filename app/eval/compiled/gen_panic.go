package compiled

// panicHelperCode is the part of the generated program's helpers (see
// helperCode) that prints an unrecovered panic's value as Go's runtime
// does (printpanicval in runtime/panic.go and print.go), for the
// toolchain the program is built with.
const panicHelperCode = `
// __trestlePanicking reports whether __trestleDone runs for a panic
// although recover returned nil: panic(nil) where GODEBUG panicnil=1 (a
// module whose go line is before 1.21, or a toolchain before it) makes
// recover return nil, and go run reports "panic: nil". The runtime calls
// a deferred function from gopanic, and from main on a return.
func __trestlePanicking() bool {
	pcs := make([]uintptr, 64)
	frames := __trestle_runtime.CallersFrames(pcs[:__trestle_runtime.Callers(1, pcs)])
	done := false
	for {
		f, more := frames.Next()
		if done {
			return f.Function == "runtime.gopanic"
		}
		done = f.Function == "main.__trestleDone"
		if !more {
			return false
		}
	}
}

// __trestlePanicReport is the line Go's runtime prints for a panic that
// nothing recovers, with value r (preprintpanics and printpanics in
// runtime/panic.go): "panic: " and the value as __trestlePanicText gives
// it, or the fatal error Go stops with when the value's Error or String
// method panics.
func __trestlePanicReport(r any) string {
	text, failed := __trestlePanicText(r)
	if failed != "" {
		return "fatal error: panic while printing panic value: " + failed
	}
	return "panic: " + text
}

// __trestlePanicText is a panic's value as the runtime prints it
// (printpanicval and printanycustomtype in runtime/error.go): nil as
// "nil"; an error's Error() and a Stringer's String(); a bool, number or
// string of a predeclared type as print prints it; one of a named type as
// T(v) ("main.myType(3)", ` + "`" + `main.S("x")` + "`" + `); anything else as its type
// and the interface's data word ("(main.T) 0xc000012345"): the value's
// address or, for a pointer-shaped value, the pointer itself. A newline of
// a text is followed by a tab (since Go 1.23). failed is what a panicking
// Error or String method panicked with, as Go names it.
func __trestlePanicText(r any) (text, failed string) {
	switch x := r.(type) {
	case nil:
		return "nil", ""
	case error:
		return __trestleMethodText(x.Error)
	case interface{ String() string }:
		return __trestleMethodText(x.String)
	}
	v := __trestle_reflect.ValueOf(r)
	t := v.Type()
	named := t.PkgPath() != "" // a predeclared type has none
	number := ""
	switch k := t.Kind(); {
	case k == __trestle_reflect.String && named:
		return t.String() + "(\"" + __trestleIndented(v.String()) + "\")", ""
	case k == __trestle_reflect.String:
		return __trestleIndented(v.String()), ""
	case k == __trestle_reflect.Complex64 || k == __trestle_reflect.Complex128:
		if named {
			return t.String() + __trestlePrintComplex(v.Complex(), t.Bits(), __trestleShortest), ""
		}
		return __trestlePrintComplex(v.Complex(), t.Bits(), __trestleShortest), ""
	case k == __trestle_reflect.Bool:
		number = __trestle_strconv.FormatBool(v.Bool())
	case k >= __trestle_reflect.Int && k <= __trestle_reflect.Int64:
		number = __trestle_strconv.FormatInt(v.Int(), 10)
	case k >= __trestle_reflect.Uint && k <= __trestle_reflect.Uintptr:
		number = __trestle_strconv.FormatUint(v.Uint(), 10)
	case k == __trestle_reflect.Float32 || k == __trestle_reflect.Float64:
		number = __trestlePrintFloat(v.Float(), t.Bits(), __trestleShortest)
	default:
		data := (*[2]__trestle_unsafe.Pointer)(__trestle_unsafe.Pointer(&r))[1]
		return __trestle_fmt.Sprintf("(%s) %#x", t, uintptr(data)), ""
	}
	if named {
		return t.String() + "(" + number + ")", ""
	}
	return number, ""
}

// __trestleMethodText is what an Error or String method returns, indented;
// when the method panics, failed is the panic's string, or its type as
// "type T" (preprintpanics).
func __trestleMethodText(method func() string) (text, failed string) {
	defer func() {
		if p := recover(); p != nil {
			if s, ok := p.(string); ok {
				failed = s
			} else {
				failed = "type " + __trestle_reflect.TypeOf(p).String()
			}
		}
	}()
	return __trestleIndented(method()), ""
}

// __trestleIndented is s with a tab after each newline, as the runtime
// prints a panic's text (printindented) since Go 1.23.
func __trestleIndented(s string) string {
	if !__trestleIndents {
		return s
	}
	return __trestle_strings.Replace(s, "\n", "\n\t", -1)
}

// __trestleIndents and __trestleShortest are what the runtime linked into
// this program does, by its version (the toolchain that built it, whatever
// the module's go line says): since Go 1.23 it indents a panic's text,
// since Go 1.26 it prints floats as strconv's shortest 'g' ("1.5"), before
// as "+1.500000e+000".
var (
	__trestleIndents  = __trestleRuntimeAtLeast(__trestle_runtime.Version(), 23)
	__trestleShortest = __trestleRuntimeAtLeast(__trestle_runtime.Version(), 26)
)

// __trestleRuntimeAtLeast reports whether a runtime of version (as
// runtime.Version says it: "go1.26.8", "go1.26rc1", "devel go1.27-abc") is
// Go 1.minor or later; an unknown form is taken to be newer.
func __trestleRuntimeAtLeast(version string, minor int) bool {
	if __trestle_strings.HasPrefix(version, "devel ") {
		version = version[len("devel "):]
	}
	if !__trestle_strings.HasPrefix(version, "go1.") {
		return true
	}
	n, digits := 0, 0
	for _, c := range version[len("go1."):] {
		if c < '0' || c > '9' {
			break
		}
		n, digits = n*10+int(c-'0'), digits+1
	}
	return digits == 0 || n >= minor
}

// __trestlePrintFloat is a float as the runtime's print prints it: the
// shortest 'g', or before Go 1.26 (runtime/print.go's printfloat, digit for
// digit) seven significant digits rounded by adding half of the last one
// and a three-digit exponent, float32 as float64.
func __trestlePrintFloat(v float64, bits int, shortest bool) string {
	if shortest {
		return __trestle_strconv.FormatFloat(v, 'g', -1, bits)
	}
	switch {
	case __trestle_math.IsNaN(v):
		return "NaN"
	case __trestle_math.IsInf(v, 1):
		return "+Inf"
	case __trestle_math.IsInf(v, -1):
		return "-Inf"
	}
	const n = 7 // digits printed
	var buf [n + 7]byte
	buf[0] = '+'
	e := 0 // exponent
	if v == 0 {
		if __trestle_math.Signbit(v) {
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

// __trestlePrintComplex is __trestlePrintFloat for a complex number:
// "(1+2i)", before Go 1.26 "(+1.000000e+000+2.000000e+000i)".
func __trestlePrintComplex(c complex128, bits int, shortest bool) string {
	if shortest {
		return __trestle_strconv.FormatComplex(c, 'g', -1, bits)
	}
	return "(" + __trestlePrintFloat(real(c), 64, false) + __trestlePrintFloat(imag(c), 64, false) + "i)"
}
`
