// limbo-go runs an x509-limbo suite through Go's crypto/x509 and writes the HARNESS.md results
// document, for comparison with burrow-x509 (crates/x509/examples/limbo.rs):
//
//	go run ./bench/limbo-go < limbo-dev.json > go-results.json
//
// Only SERVER validation with a DNS or IP peer name is attempted, like burrow's harness.
package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"time"
)

type peerName struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type testcase struct {
	ID                     string    `json:"id"`
	Features               []string  `json:"features"`
	ValidationKind         string    `json:"validation_kind"`
	TrustedCerts           []string  `json:"trusted_certs"`
	UntrustedIntermediates []string  `json:"untrusted_intermediates"`
	PeerCertificate        string    `json:"peer_certificate"`
	ValidationTime         *string   `json:"validation_time"`
	ExpectedPeerName       *peerName `json:"expected_peer_name"`
	ExtendedKeyUsage       []string  `json:"extended_key_usage"`
}

type result struct {
	ID      string `json:"id"`
	Actual  string `json:"actual_result"`
	Context string `json:"context,omitempty"`
}

func certs(pems []string) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for _, p := range pems {
		rest := []byte(p)
		for {
			var b *pem.Block
			b, rest = pem.Decode(rest)
			if b == nil {
				break
			}
			c, err := x509.ParseCertificate(b.Bytes)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func run(tc testcase) result {
	r := result{ID: tc.ID}
	for _, f := range tc.Features {
		if f == "has-crl" {
			r.Actual, r.Context = "SKIPPED", "CRL"
			return r
		}
	}
	if tc.ValidationKind != "SERVER" || tc.ExpectedPeerName == nil {
		r.Actual, r.Context = "SKIPPED", "not a SERVER case with a peer name"
		return r
	}
	fail := func(err error) result { r.Actual, r.Context = "FAILURE", err.Error(); return r }
	roots, err := certs(tc.TrustedCerts)
	if err != nil {
		return fail(err)
	}
	inters, err := certs(tc.UntrustedIntermediates)
	if err != nil {
		return fail(err)
	}
	leaf, err := certs([]string{tc.PeerCertificate})
	if err != nil {
		return fail(err)
	}
	if len(leaf) == 0 {
		return fail(fmt.Errorf("no peer certificate"))
	}
	opts := x509.VerifyOptions{
		DNSName:       tc.ExpectedPeerName.Value,
		Roots:         x509.NewCertPool(),
		Intermediates: x509.NewCertPool(),
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, c := range roots {
		opts.Roots.AddCert(c)
	}
	for _, c := range inters {
		opts.Intermediates.AddCert(c)
	}
	if tc.ValidationTime != nil {
		t, err := time.Parse(time.RFC3339, *tc.ValidationTime)
		if err != nil {
			return fail(err)
		}
		opts.CurrentTime = t
	}
	if _, err := leaf[0].Verify(opts); err != nil {
		return fail(err)
	}
	r.Actual = "SUCCESS"
	return r
}

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "limbo-go:", err)
		os.Exit(2)
	}
	var suite struct {
		Testcases []testcase `json:"testcases"`
	}
	if err := json.Unmarshal(in, &suite); err != nil {
		fmt.Fprintln(os.Stderr, "limbo-go: stdin is not a limbo suite:", err)
		os.Exit(2)
	}
	out := struct {
		Version int      `json:"version"`
		Harness string   `json:"harness"`
		Results []result `json:"results"`
	}{1, "go-crypto-x509", nil}
	for _, tc := range suite.Testcases {
		out.Results = append(out.Results, run(tc))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
}
