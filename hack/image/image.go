package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// NonRoot is the user and group the image runs as, distroless's "nonroot".
const NonRoot = 65532

// Entrypoint is where the binary lives in the image; the chart's containers name it.
const Entrypoint = "/aisle"

// Options describe the image to build.
type Options struct {
	Binary, Tag, Version, Revision, CACerts, Arch string
}

// Image builds the image: one layer on nothing, its config saying how to run it.
func Image(o Options) (v1.Image, error) {
	files, err := rootFS(o)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(files)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("layer: %w", err)
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", o.Arch
	cfg.Config = v1.Config{
		Entrypoint: []string{Entrypoint},
		User:       fmt.Sprintf("%d:%d", NonRoot, NonRoot),
		WorkingDir: "/",
		Env:        []string{"PATH=/"},
		Labels:     labels(o),
	}
	return mutate.ConfigFile(img, cfg)
}

func labels(o Options) map[string]string {
	l := map[string]string{
		"org.opencontainers.image.title":       "aisle",
		"org.opencontainers.image.description": "Aisle: catalog search for online shops (operator, API server, engine)",
		"org.opencontainers.image.version":     o.Version,
		"org.opencontainers.image.source":      "https://github.com/aislehq/aisle",
	}
	if o.Revision != "" {
		l["org.opencontainers.image.revision"] = o.Revision
	}
	return l
}

// rootFS is the layer's tar: the binary, the users, the CA bundle and /tmp. Every entry
// has the same time, so the same inputs give the same digest.
func rootFS(o Options) ([]byte, error) {
	binary, err := os.ReadFile(o.Binary)
	if err != nil {
		return nil, fmt.Errorf("reading the binary: %w", err)
	}
	if err := checkStatic(binary); err != nil {
		return nil, err
	}
	certs, err := os.ReadFile(o.CACerts)
	if err != nil {
		return nil, fmt.Errorf("reading the CA bundle (install the ca-certificates package): %w", err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	entries := []struct {
		name string
		mode int64
		uid  int
		body []byte
	}{
		{"etc/", 0o755, 0, nil},
		{"etc/passwd", 0o644, 0, []byte(fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/home/nonroot:/sbin/nologin\n", NonRoot, NonRoot))},
		{"etc/group", 0o644, 0, []byte(fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", NonRoot))},
		{"etc/ssl/", 0o755, 0, nil},
		{"etc/ssl/certs/", 0o755, 0, nil},
		{"etc/ssl/certs/ca-certificates.crt", 0o644, 0, certs},
		{"home/", 0o755, 0, nil},
		{"home/nonroot/", 0o700, NonRoot, nil},
		{"tmp/", 0o1777, 0, nil},
		{Entrypoint[1:], 0o755, 0, binary},
	}
	for _, e := range entries {
		if err := writeEntry(tw, e.name, e.mode, e.uid, e.body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkStatic refuses a binary that needs a dynamic loader: the image holds no libc, so it
// would fail to start with a bare "no such file or directory".
func checkStatic(binary []byte) error {
	f, err := elf.NewFile(bytes.NewReader(binary))
	if err != nil {
		return fmt.Errorf("the binary is not an ELF executable: %w", err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("the binary is dynamically linked: build it with CGO_ENABLED=0")
		}
	}
	return nil
}

func writeEntry(tw *tar.Writer, name string, mode int64, uid int, body []byte) error {
	h := &tar.Header{Name: name, Mode: mode, Uid: uid, Gid: uid, ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg, Size: int64(len(body))}
	if name[len(name)-1] == '/' {
		h.Typeflag = tar.TypeDir
	}
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	_, err := tw.Write(body)
	return err
}

// WriteArchive builds the image and writes it as an OCI image layout packed in a tar,
// which `docker load`, `podman load` and `skopeo copy oci-archive:` read.
func WriteArchive(o Options, out string) error {
	img, err := Image(o)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "aisle-image")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	err = p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": o.Tag}))
	if err != nil {
		return fmt.Errorf("writing the layout: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return tarDir(dir, out)
}

// tarDir packs the files under dir into the tar at out, with paths relative to dir.
func tarDir(dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(f)
	err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if info.IsDir() {
			return writeEntry(tw, rel+"/", 0o755, 0, nil)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return writeEntry(tw, rel, 0o644, 0, body)
	})
	if err == nil {
		err = tw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
