module bendscript.com/round-trip-harness

go 1.26.0

require github.com/gowebpki/jcs v1.0.2
