import sys


def main(argv):
    # ok: python-print-in-library
    print("usage: report <file>")
    # ruleid: python-breakpoint-in-cli
    breakpoint()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
