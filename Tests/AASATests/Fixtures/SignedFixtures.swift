/// Legacy PKCS7-signed AASA bodies, generated once with OpenSSL 3.0 and a throwaway P-256 key:
///
/// ```
/// openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout k.pem -out c.pem \
///     -subj "/CN=aasa-monitor test signer" -days 1
/// openssl cms -sign -nodetach -binary -in aasa.json -signer c.pem -inkey k.pem -outform DER -nosmimecap -noattr
/// openssl cms -sign -nodetach -binary -stream …   (same, streaming: BER indefinite lengths)
/// ```
///
/// Checking these in is safe although the certificate has expired: Apple never verifies the signature of an AASA
/// envelope, and neither does the parser, so nothing here depends on the clock.
enum SignedFixtures {
    /// The JSON both envelopes carry.
    static let json =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#

    /// DER: definite lengths, primitive OCTET STRING.
    static let derBase64 = """
        MIIC4wYJKoZIhvcNAQcCoIIC1DCCAtACAQExDTALBglghkgBZQMEAgEwcQYJKoZIhvcNAQcBoGQEYnsiYXBwbGlua3MiOnsiZGV0\
        YWlscyI6W3siYXBwSURzIjpbIkFCQ0RFMTIzNDUuY29tLmV4YW1wbGUuYXBwIl0sImNvbXBvbmVudHMiOlt7Ii8iOiIvYnV5Lyoi\
        fV19XX19oIIBnzCCAZswggFBoAMCAQICFBJ6CO9OHdTrnbyIsheFjkpuN3PjMAoGCCqGSM49BAMCMCMxITAfBgNVBAMMGGFhc2Et\
        bW9uaXRvciB0ZXN0IHNpZ25lcjAeFw0yNjExMjEyMDMxMzFaFw0yNjExMjIyMDMxMzFaMCMxITAfBgNVBAMMGGFhc2EtbW9uaXRv\
        ciB0ZXN0IHNpZ25lcjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABIwh8KMJ79rjVWWSEnAFQtq/IBk3/mIXkJVXZ0zio5Oc8gDV\
        JgTM2yowHh+/gcOLgzDy22vlBHquRzKgXQnDE5SjUzBRMB0GA1UdDgQWBBR1uhosyvnVSHuqP6s6VN54ySIkvTAfBgNVHSMEGDAW\
        gBR1uhosyvnVSHuqP6s6VN54ySIkvTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDt2BOiwY0qyJBRlEotNByU\
        7Svitqq/DGpz3wVtJuA/WQIgJx8FgIWWmatsvBudPEPMR0TvBf3Xc8jV68zy2HDTCoExgaUwgaICAQEwOzAjMSEwHwYDVQQDDBhh\
        YXNhLW1vbml0b3IgdGVzdCBzaWduZXICFBJ6CO9OHdTrnbyIsheFjkpuN3PjMAsGCWCGSAFlAwQCATAKBggqhkjOPQQDAgRHMEUC\
        ICbDCNuU53JqPmw8tgb9nWSlstEHQvOKGAGfal8TJrVzAiEA9wwLFZ6oLMZqWvhy/9+e/Fmq8wlSiUWKuhg15syC5kg=
        """

    /// BER from `-stream`: indefinite lengths and a constructed OCTET STRING around the content.
    static let berBase64 = """
        MIAGCSqGSIb3DQEHAqCAMIACAQExDTALBglghkgBZQMEAgEwgAYJKoZIhvcNAQcBoIAkgARieyJhcHBsaW5rcyI6eyJkZXRhaWxz\
        IjpbeyJhcHBJRHMiOlsiQUJDREUxMjM0NS5jb20uZXhhbXBsZS5hcHAiXSwiY29tcG9uZW50cyI6W3siLyI6Ii9idXkvKiJ9XX1d\
        fX0AAAAAAACgggGfMIIBmzCCAUGgAwIBAgIUEnoI704d1OudvIiyF4WOSm43c+MwCgYIKoZIzj0EAwIwIzEhMB8GA1UEAwwYYWFz\
        YS1tb25pdG9yIHRlc3Qgc2lnbmVyMB4XDTI2MTEyMTIwMzEzMVoXDTI2MTEyMjIwMzEzMVowIzEhMB8GA1UEAwwYYWFzYS1tb25p\
        dG9yIHRlc3Qgc2lnbmVyMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEjCHwownv2uNVZZIScAVC2r8gGTf+YheQlVdnTOKjk5zy\
        ANUmBMzbKjAeH7+Bw4uDMPLba+UEeq5HMqBdCcMTlKNTMFEwHQYDVR0OBBYEFHW6GizK+dVIe6o/qzpU3njJIiS9MB8GA1UdIwQY\
        MBaAFHW6GizK+dVIe6o/qzpU3njJIiS9MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhAO3YE6LBjSrIkFGUSi00\
        HJTtK+K2qr8ManPfBW0m4D9ZAiAnHwWAhZaZq2y8G508Q8xHRO8F/ddzyNXrzPLYcNMKgTGBpTCBogIBATA7MCMxITAfBgNVBAMM\
        GGFhc2EtbW9uaXRvciB0ZXN0IHNpZ25lcgIUEnoI704d1OudvIiyF4WOSm43c+MwCwYJYIZIAWUDBAIBMAoGCCqGSM49BAMCBEcw\
        RQIhALA1BEjBD21XpQoKtWY56z0mfVU87BYvL+S2+3AsdWlNAiB4efSiwP2DV+8TmaX3qVREdbosh4sf8xUD53gVPHslAgAAAAAA\
        AA==
        """
}
