# The aisle image for machines with Docker; `make image` builds the same image without it.
# Build: docker build -t aisle:dev --build-arg VERSION=dev --build-arg REVISION="$(git rev-parse HEAD)" .
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags="-s -w -X github.com/aislehq/aisle/internal/version.Version=${VERSION}" \
      -o /out/aisle ./cmd/aisle \
 && mkdir -p /out/etc /out/tmp /out/home/nonroot \
 && chmod 1777 /out/tmp \
 && printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > /out/etc/passwd \
 && printf 'root:x:0:\nnonroot:x:65532:\n' > /out/etc/group

# Distroless-style: the static binary, the users, the CA bundle and /tmp, nothing else.
FROM scratch
ARG VERSION=dev
ARG REVISION=""
LABEL org.opencontainers.image.title="aisle" \
      org.opencontainers.image.description="Aisle: catalog search for online shops (operator, API server, engine)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="https://github.com/aislehq/aisle"
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/etc/ /etc/
COPY --from=build --chown=65532:65532 /out/home/nonroot /home/nonroot
COPY --from=build /out/tmp /tmp
COPY --from=build /out/aisle /aisle
USER 65532:65532
WORKDIR /
ENTRYPOINT ["/aisle"]
