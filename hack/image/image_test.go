package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/repo"
)

func TestImage(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "image")
}

var _ = Describe("The image make image builds", Ordered, func() {
	const version, revision = "v9.8.7-test", "abc123"
	var img v1.Image
	var root string

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		var err error
		root, err = repo.Root()
		Expect(err).NotTo(HaveOccurred())
		// The target itself, so that its build flags (a static binary) are under test too; its
		// binary goes to LOCALBIN, kept out of the repository's bin/.
		archive := filepath.Join(dir, "aisle.oci.tar")
		build := exec.Command("make", "--no-print-directory", "image", "VERSION="+version, "REVISION="+revision,
			"IMAGE_TAR="+archive, "LOCALBIN="+filepath.Join(dir, "bin"))
		build.Dir = root
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		img = readArchive(archive, filepath.Join(dir, "layout"), "aisle:"+version)
	})

	It("runs the aisle binary as the non-root user 65532 from /", func() {
		cfg, err := img.ConfigFile()
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.OS).To(Equal("linux"))
		Expect(cfg.Architecture).To(Equal(runtime.GOARCH))
		Expect(cfg.Config.Entrypoint).To(Equal([]string{"/aisle"}))
		Expect(cfg.Config.User).To(Equal("65532:65532"))
		Expect(cfg.Config.WorkingDir).To(Equal("/"))
	})

	It("carries the OCI labels of its version and revision", func() {
		cfg, err := img.ConfigFile()
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Config.Labels).To(HaveKeyWithValue("org.opencontainers.image.title", "aisle"))
		Expect(cfg.Config.Labels).To(HaveKeyWithValue("org.opencontainers.image.version", version))
		Expect(cfg.Config.Labels).To(HaveKeyWithValue("org.opencontainers.image.revision", revision))
	})

	It("holds a static binary that runs `aisle version`, the users file and the CA bundle", func() {
		files := extract(img, GinkgoT().TempDir())
		Expect(files).To(HaveKey("etc/passwd"))
		Expect(os.ReadFile(files["etc/passwd"])).To(ContainSubstring("nonroot:x:65532:65532:"))
		Expect(files).To(HaveKey("etc/ssl/certs/ca-certificates.crt"))
		Expect(files).To(HaveKey("aisle"))
		binary, err := os.ReadFile(files["aisle"])
		Expect(err).NotTo(HaveOccurred())
		Expect(checkStatic(binary)).To(Succeed(), "the image has no libc to load")
		out, err := exec.Command(files["aisle"], "version").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(Equal(version + "\n"))
	})

	It("is what the Dockerfile builds for those with Docker: static, on nothing, the same user, entrypoint and labels", func() {
		dockerfile, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
		Expect(err).NotTo(HaveOccurred())
		stages := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(string(dockerfile), -1)
		Expect(stages).To(HaveLen(2), "a build stage and the image")
		Expect(stages[1][1]).To(Equal("scratch"))
		Expect(string(dockerfile)).To(And(
			ContainSubstring("CGO_ENABLED=0 go build"),
			MatchRegexp(`(?m)^USER %d:%d$`, NonRoot, NonRoot),
			MatchRegexp(`(?m)^ENTRYPOINT \["%s"\]$`, Entrypoint),
		))
		cfg, err := img.ConfigFile()
		Expect(err).NotTo(HaveOccurred())
		for label := range cfg.Config.Labels {
			Expect(string(dockerfile)).To(ContainSubstring(label+"="), "the Dockerfile's labels")
		}
	})

	It("refuses a binary that needs a dynamic loader", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module dynamic\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"C\"\n\nfunc main() {}\n"), 0o644)).To(Succeed())
		build := exec.Command("go", "build", "-o", "dynamic", ".")
		build.Dir = dir
		build.Env = append(os.Environ(), "CGO_ENABLED=1")
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		err = WriteArchive(Options{Binary: filepath.Join(dir, "dynamic"), Tag: "aisle:dynamic", CACerts: "/etc/ssl/certs/ca-certificates.crt",
			Arch: runtime.GOARCH}, filepath.Join(dir, "aisle.oci.tar"))
		Expect(err).To(MatchError(ContainSubstring("dynamically linked")))
	})
})

// readArchive unpacks the OCI archive and returns the image recorded under tag.
func readArchive(archive, dir, tag string) v1.Image {
	f, err := os.Open(archive)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		Expect(err).NotTo(HaveOccurred())
		writeOut(filepath.Join(dir, h.Name), h, tr)
	}
	index, err := layout.ImageIndexFromPath(dir)
	Expect(err).NotTo(HaveOccurred())
	manifest, err := index.IndexManifest()
	Expect(err).NotTo(HaveOccurred())
	Expect(manifest.Manifests).To(HaveLen(1))
	Expect(manifest.Manifests[0].Annotations).To(HaveKeyWithValue("org.opencontainers.image.ref.name", tag))
	img, err := index.Image(manifest.Manifests[0].Digest)
	Expect(err).NotTo(HaveOccurred())
	return img
}

// extract writes the image's regular files under dir, keeping their modes, and maps
// each path in the image to where it was written.
func extract(img v1.Image, dir string) map[string]string {
	rc := mutate.Extract(img)
	defer rc.Close()
	files := map[string]string{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files
		}
		Expect(err).NotTo(HaveOccurred())
		if h.Typeflag == tar.TypeReg {
			files[h.Name] = filepath.Join(dir, h.Name)
			writeOut(files[h.Name], h, tr)
		}
	}
}

func writeOut(path string, h *tar.Header, r io.Reader) {
	if h.Typeflag == tar.TypeDir {
		Expect(os.MkdirAll(path, 0o755)).To(Succeed())
		return
	}
	Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode).Perm()|0o200)
	Expect(err).NotTo(HaveOccurred())
	_, err = io.Copy(f, r)
	Expect(err).NotTo(HaveOccurred())
	Expect(f.Close()).To(Succeed())
}
