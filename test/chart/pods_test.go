package chart

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"

	"github.com/aislehq/aisle/test/envtestenv"
)

// A pod stands in for one of the chart's pods with no kubelet: the rendered container's
// command, args and environment, run by bin/aisle on this machine. Only what a kubelet
// would provide is translated: the image's /aisle is bin/aisle, volume mounts are
// folders here, Service names resolve to the loopback port of the container behind them,
// and the ServiceAccount's token comes in a kubeconfig instead of a mounted file.
type pod struct {
	name           string
	namespace      string
	serviceAccount string
	container      corev1.Container
	volumes        map[string]string // mount path -> local folder
}

// podsOf returns the pods of the rendered Deployments and StatefulSets, their volumes
// folders under dir.
func podsOf(objs []*unstructured.Unstructured, dir string) []pod {
	var pods []pod
	for _, o := range workloads(objs) {
		var spec corev1.PodSpec
		Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(podSpec(o), &spec)).To(Succeed())
		Expect(spec.Containers).To(HaveLen(1))
		p := pod{name: o.GetName(), namespace: o.GetNamespace(), serviceAccount: spec.ServiceAccountName,
			container: spec.Containers[0], volumes: map[string]string{}}
		for _, m := range p.container.VolumeMounts {
			p.volumes[m.MountPath] = filepath.Join(dir, p.name, m.Name)
		}
		pods = append(pods, p)
	}
	return pods
}

// start runs the pod's container as the chart's ServiceAccount, with its files under dir.
func (p pod) start(objs []*unstructured.Unstructured, dir string) *gexec.Session {
	Expect(p.container.Command).To(Equal([]string{"/aisle"}), "the image's binary is /aisle")
	home := filepath.Join(dir, p.name, "home")
	Expect(os.MkdirAll(home, 0o755)).To(Succeed())
	env := []string{"HOME=" + home}
	for _, e := range p.container.Env {
		env = append(env, e.Name+"="+p.envValue(e, objs))
	}
	if p.serviceAccount != "" {
		env = append(env, "KUBECONFIG="+serviceAccountKubeconfig(p.namespace, p.serviceAccount, home))
	}
	args := make([]string, len(p.container.Args))
	for i, a := range p.container.Args {
		args[i] = p.localPath(a)
	}
	cmd := exec.Command(tools.aisle, args...)
	cmd.Env = env
	session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	return session
}

// stop ends the processes as the kubelet ends a pod, with SIGTERM, and waits for them.
func stop(sessions []*gexec.Session) {
	for _, s := range sessions {
		s.Signal(syscall.SIGTERM)
	}
	for _, s := range sessions {
		Eventually(s).WithTimeout(defaultTimeout).Should(gexec.Exit())
	}
}

// envValue resolves what a kubelet would: plain values, the downward API's namespace,
// and Service addresses, which become the loopback address of the pod behind them.
func (p pod) envValue(e corev1.EnvVar, objs []*unstructured.Unstructured) string {
	switch {
	case e.ValueFrom == nil:
		return serviceToLoopback(e.Value, objs)
	case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace":
		return p.namespace
	}
	Fail(fmt.Sprintf("%s: env %s comes from a source this test does not resolve", p.name, e.Name))
	return ""
}

// localPath maps a flag's value under a volume mount to the folder standing in for it.
func (p pod) localPath(arg string) string {
	flag, value, ok := strings.Cut(arg, "=")
	if !ok {
		return arg
	}
	for mount, local := range p.volumes {
		if value == mount || strings.HasPrefix(value, mount+"/") {
			return flag + "=" + local + strings.TrimPrefix(value, mount)
		}
	}
	return arg
}

// serviceToLoopback rewrites a URL to <service>.<namespace>.svc:<port> into the loopback
// address of the container port the Service sends that port to, failing when no
// rendered Service or container matches: the wiring between them is under test.
func serviceToLoopback(value string, objs []*unstructured.Unstructured) string {
	u, err := url.Parse(value)
	if err != nil || !strings.HasSuffix(u.Hostname(), ".svc") {
		return value
	}
	name, _, _ := strings.Cut(u.Hostname(), ".")
	var svc corev1.Service
	Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(find(objs, "Service", name).Object, &svc)).To(Succeed())
	for _, port := range svc.Spec.Ports {
		if fmt.Sprint(port.Port) == u.Port() {
			u.Host = net.JoinHostPort("127.0.0.1", fmt.Sprint(containerPort(objs, svc.Spec.Selector, port.TargetPort.String())))
			return u.String()
		}
	}
	Fail(fmt.Sprintf("Service %s has no port %s", name, u.Port()))
	return ""
}

// containerPort finds the named port of the container the selector picks.
func containerPort(objs []*unstructured.Unstructured, selector map[string]string, name string) int32 {
	for _, o := range workloads(objs) {
		labels, _, _ := unstructured.NestedStringMap(o.Object, "spec", "template", "metadata", "labels")
		if !matches(selector, labels) {
			continue
		}
		var spec corev1.PodSpec
		Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(podSpec(o), &spec)).To(Succeed())
		if port, ok := portNamed(spec.Containers[0], name); ok {
			return port
		}
	}
	Fail(fmt.Sprintf("no container port %q behind the selector %v", name, selector))
	return 0
}

func portNamed(c corev1.Container, name string) (int32, bool) {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

// probes returns the URLs the kubelet would call for the container's liveness and
// readiness probes, on the loopback address that stands in for the pod's.
func (p pod) probes() []string {
	var urls []string
	for _, probe := range []*corev1.Probe{p.container.LivenessProbe, p.container.ReadinessProbe} {
		Expect(probe).NotTo(BeNil(), "%s has no liveness or no readiness probe", p.name)
		Expect(probe.HTTPGet).NotTo(BeNil(), "%s: the probes are HTTP", p.name)
		port := int32(probe.HTTPGet.Port.IntValue())
		if probe.HTTPGet.Port.Type == intstr.String {
			var ok bool
			port, ok = portNamed(p.container, probe.HTTPGet.Port.StrVal)
			Expect(ok).To(BeTrue(), "%s: a probe names the port %s, which the container lacks", p.name, probe.HTTPGet.Port.StrVal)
		}
		urls = append(urls, fmt.Sprintf("http://127.0.0.1:%d%s", port, probe.HTTPGet.Path))
	}
	return urls
}

func matches(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return len(selector) > 0
}

// serviceAccountKubeconfig writes a kubeconfig holding a token issued to the
// ServiceAccount, as the kubelet mounts one into the pod: the kube-apiserver then
// authorizes every call with the chart's RBAC alone.
func serviceAccountKubeconfig(namespace, name, dir string) string {
	ctx := context.Background()
	token, err := tools.kube.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "the chart must create ServiceAccount %s/%s", namespace, name)
	cfg := rest.AnonymousClientConfig(tools.cfg)
	cfg.BearerToken = token.Status.Token
	path := filepath.Join(dir, name+".kubeconfig")
	Expect(envtestenv.WriteKubeconfig(cfg, path)).To(Succeed())
	return path
}

// freePort returns a loopback port nothing listens on now.
func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
