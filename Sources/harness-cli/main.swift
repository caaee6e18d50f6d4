print("harness-cli")
