/// Simple case folding for `caseSensitive: false`: both the pattern and the URL text are lowered, so letters
/// match regardless of case and predefined variables widen (`$(upper)` then accepts `q`), as Apple's matcher does.
enum CaseFolding {
    static func fold(_ scalar: UInt32) -> UInt32 {
        if scalar < 0x80 {
            return (scalar >= 0x41 && scalar <= 0x5A) ? scalar + 0x20 : scalar
        }
        guard let unicodeScalar = Unicode.Scalar(scalar) else { return scalar }
        let lowered = unicodeScalar.properties.lowercaseMapping.unicodeScalars
        // A mapping to several scalars (rare, e.g. U+0130) would change lengths; keep the scalar itself then.
        guard lowered.count == 1, let first = lowered.first else { return scalar }
        return first.value
    }
}
