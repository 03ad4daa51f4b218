def total(items):
    amount = sum(item.price for item in items)
    # ruleid: python-print-in-library
    print("total", amount)
    # ok: python-breakpoint-in-cli
    breakpoint()
    return amount
