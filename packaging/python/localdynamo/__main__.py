from localdynamo import main

main()
