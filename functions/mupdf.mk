# Shared by the Makefiles of the functions that link MuPDF. sam build runs
# them from the repository root (Metadata WorkingDirectory in template.yaml).
# MuPDF is C, so these are built with cgo, fully static against musl, for
# x86_64 (the MuPDF build go-fitz ships for Linux musl).

# $(call mupdf-function,<dir under functions/>)
mupdf-function = CGO_ENABLED=1 CC=musl-gcc GOOS=linux GOARCH=amd64 go build -trimpath -tags 'musl lambda.norpc' \
	-ldflags '-s -w -linkmode external -extldflags "-static"' -o $(ARTIFACTS_DIR)/bootstrap ./functions/$(1)

# Tesseract, the OCR chain's last engine, travels with functions that read pages.
tesseract-bundle = ./functions/recognize/bundle-tesseract.sh $(ARTIFACTS_DIR)/tesseract
